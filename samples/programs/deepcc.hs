-- deepcc: deep cost-centre stacks, for hp2x's pprof output (-o NAME.pb.gz).
--
-- main calls a chain of forty functions, depth01 to depth40 (compiled with
-- -fprof-auto, so each is a cost centre, and each call one frame deeper);
-- each link of the chain keeps a list whose size grows with the round and
-- with its depth, allocated by `cells` (its stacks: cells.xs/cells/
-- depthNN/.../depth01/chain/main.go/main, up to 45 frames).  At depth 20
-- the list is built under an SCC whose name holds a '/' ("parse/json"),
-- which GHC's .hp text cannot tell from two frames and the eventlog can.
-- A constant table (a CAF) stays alive throughout.  Rounds grow to a peak,
-- then the chains of the earlier rounds are released: the census is slower
-- the more it holds, so the ramp takes most of the run and the drop its
-- last tenth.
-- Heap shape: a ramp of deep stacks to a peak near the end, then a drop.
--
-- Usage: deepcc [ROUNDS [SCALE]]   (defaults 60 and 8)
module Main (main) where

import Control.Exception (evaluate)
import System.Environment (getArgs)

-- A CAF: alive for the whole run.
table :: [Int]
table = [1 .. 20000]
{-# NOINLINE table #-}

-- The list a link keeps: n cells, forced.
cells :: Int -> IO [Int]
cells n = do
  let xs = [n .. 2 * n]
  _ <- evaluate (sum xs + length xs)
  return xs
{-# NOINLINE cells #-}

depth01 :: Int -> IO [[Int]]
depth01 s = do
  xs <- cells (s * 1)
  rest <- depth02 s
  return (xs : rest)
{-# NOINLINE depth01 #-}

depth02 :: Int -> IO [[Int]]
depth02 s = do
  xs <- cells (s * 2)
  rest <- depth03 s
  return (xs : rest)
{-# NOINLINE depth02 #-}

depth03 :: Int -> IO [[Int]]
depth03 s = do
  xs <- cells (s * 3)
  rest <- depth04 s
  return (xs : rest)
{-# NOINLINE depth03 #-}

depth04 :: Int -> IO [[Int]]
depth04 s = do
  xs <- cells (s * 4)
  rest <- depth05 s
  return (xs : rest)
{-# NOINLINE depth04 #-}

depth05 :: Int -> IO [[Int]]
depth05 s = do
  xs <- cells (s * 5)
  rest <- depth06 s
  return (xs : rest)
{-# NOINLINE depth05 #-}

depth06 :: Int -> IO [[Int]]
depth06 s = do
  xs <- cells (s * 6)
  rest <- depth07 s
  return (xs : rest)
{-# NOINLINE depth06 #-}

depth07 :: Int -> IO [[Int]]
depth07 s = do
  xs <- cells (s * 7)
  rest <- depth08 s
  return (xs : rest)
{-# NOINLINE depth07 #-}

depth08 :: Int -> IO [[Int]]
depth08 s = do
  xs <- cells (s * 8)
  rest <- depth09 s
  return (xs : rest)
{-# NOINLINE depth08 #-}

depth09 :: Int -> IO [[Int]]
depth09 s = do
  xs <- cells (s * 9)
  rest <- depth10 s
  return (xs : rest)
{-# NOINLINE depth09 #-}

depth10 :: Int -> IO [[Int]]
depth10 s = do
  xs <- cells (s * 10)
  rest <- depth11 s
  return (xs : rest)
{-# NOINLINE depth10 #-}

depth11 :: Int -> IO [[Int]]
depth11 s = do
  xs <- cells (s * 11)
  rest <- depth12 s
  return (xs : rest)
{-# NOINLINE depth11 #-}

depth12 :: Int -> IO [[Int]]
depth12 s = do
  xs <- cells (s * 12)
  rest <- depth13 s
  return (xs : rest)
{-# NOINLINE depth12 #-}

depth13 :: Int -> IO [[Int]]
depth13 s = do
  xs <- cells (s * 13)
  rest <- depth14 s
  return (xs : rest)
{-# NOINLINE depth13 #-}

depth14 :: Int -> IO [[Int]]
depth14 s = do
  xs <- cells (s * 14)
  rest <- depth15 s
  return (xs : rest)
{-# NOINLINE depth14 #-}

depth15 :: Int -> IO [[Int]]
depth15 s = do
  xs <- cells (s * 15)
  rest <- depth16 s
  return (xs : rest)
{-# NOINLINE depth15 #-}

depth16 :: Int -> IO [[Int]]
depth16 s = do
  xs <- cells (s * 16)
  rest <- depth17 s
  return (xs : rest)
{-# NOINLINE depth16 #-}

depth17 :: Int -> IO [[Int]]
depth17 s = do
  xs <- cells (s * 17)
  rest <- depth18 s
  return (xs : rest)
{-# NOINLINE depth17 #-}

depth18 :: Int -> IO [[Int]]
depth18 s = do
  xs <- cells (s * 18)
  rest <- depth19 s
  return (xs : rest)
{-# NOINLINE depth18 #-}

depth19 :: Int -> IO [[Int]]
depth19 s = do
  xs <- cells (s * 19)
  rest <- depth20 s
  return (xs : rest)
{-# NOINLINE depth19 #-}

depth20 :: Int -> IO [[Int]]
depth20 s = do
  xs <- {-# SCC "parse/json" #-} cells (s * 20)
  rest <- depth21 s
  return (xs : rest)
{-# NOINLINE depth20 #-}

depth21 :: Int -> IO [[Int]]
depth21 s = do
  xs <- cells (s * 21)
  rest <- depth22 s
  return (xs : rest)
{-# NOINLINE depth21 #-}

depth22 :: Int -> IO [[Int]]
depth22 s = do
  xs <- cells (s * 22)
  rest <- depth23 s
  return (xs : rest)
{-# NOINLINE depth22 #-}

depth23 :: Int -> IO [[Int]]
depth23 s = do
  xs <- cells (s * 23)
  rest <- depth24 s
  return (xs : rest)
{-# NOINLINE depth23 #-}

depth24 :: Int -> IO [[Int]]
depth24 s = do
  xs <- cells (s * 24)
  rest <- depth25 s
  return (xs : rest)
{-# NOINLINE depth24 #-}

depth25 :: Int -> IO [[Int]]
depth25 s = do
  xs <- cells (s * 25)
  rest <- depth26 s
  return (xs : rest)
{-# NOINLINE depth25 #-}

depth26 :: Int -> IO [[Int]]
depth26 s = do
  xs <- cells (s * 26)
  rest <- depth27 s
  return (xs : rest)
{-# NOINLINE depth26 #-}

depth27 :: Int -> IO [[Int]]
depth27 s = do
  xs <- cells (s * 27)
  rest <- depth28 s
  return (xs : rest)
{-# NOINLINE depth27 #-}

depth28 :: Int -> IO [[Int]]
depth28 s = do
  xs <- cells (s * 28)
  rest <- depth29 s
  return (xs : rest)
{-# NOINLINE depth28 #-}

depth29 :: Int -> IO [[Int]]
depth29 s = do
  xs <- cells (s * 29)
  rest <- depth30 s
  return (xs : rest)
{-# NOINLINE depth29 #-}

depth30 :: Int -> IO [[Int]]
depth30 s = do
  xs <- cells (s * 30)
  rest <- depth31 s
  return (xs : rest)
{-# NOINLINE depth30 #-}

depth31 :: Int -> IO [[Int]]
depth31 s = do
  xs <- cells (s * 31)
  rest <- depth32 s
  return (xs : rest)
{-# NOINLINE depth31 #-}

depth32 :: Int -> IO [[Int]]
depth32 s = do
  xs <- cells (s * 32)
  rest <- depth33 s
  return (xs : rest)
{-# NOINLINE depth32 #-}

depth33 :: Int -> IO [[Int]]
depth33 s = do
  xs <- cells (s * 33)
  rest <- depth34 s
  return (xs : rest)
{-# NOINLINE depth33 #-}

depth34 :: Int -> IO [[Int]]
depth34 s = do
  xs <- cells (s * 34)
  rest <- depth35 s
  return (xs : rest)
{-# NOINLINE depth34 #-}

depth35 :: Int -> IO [[Int]]
depth35 s = do
  xs <- cells (s * 35)
  rest <- depth36 s
  return (xs : rest)
{-# NOINLINE depth35 #-}

depth36 :: Int -> IO [[Int]]
depth36 s = do
  xs <- cells (s * 36)
  rest <- depth37 s
  return (xs : rest)
{-# NOINLINE depth36 #-}

depth37 :: Int -> IO [[Int]]
depth37 s = do
  xs <- cells (s * 37)
  rest <- depth38 s
  return (xs : rest)
{-# NOINLINE depth37 #-}

depth38 :: Int -> IO [[Int]]
depth38 s = do
  xs <- cells (s * 38)
  rest <- depth39 s
  return (xs : rest)
{-# NOINLINE depth38 #-}

depth39 :: Int -> IO [[Int]]
depth39 s = do
  xs <- cells (s * 39)
  rest <- depth40 s
  return (xs : rest)
{-# NOINLINE depth39 #-}

depth40 :: Int -> IO [[Int]]
depth40 s = do
  xs <- cells (s * 40)
  return [xs]
{-# NOINLINE depth40 #-}

-- Round r's chain, its size growing with r.
chain :: Int -> Int -> IO [[Int]]
chain scale r = do
  links <- depth01 (scale * r `div` 8 + 1)
  _ <- evaluate (sum (map length links))
  return links

main :: IO ()
main = do
  args <- getArgs
  let rounds = case args of (a : _) -> read a; _ -> 60
      scale = case args of (_ : b : _) -> read b; _ -> 8
      peak = rounds * 2 `div` 3
  _ <- evaluate (sum table)
  -- Up to the peak every round's chain is kept; after it, only the last.
  let go r kept
        | r > rounds = return kept
        | otherwise = do
            links <- chain scale (if r <= peak then r else rounds - r + 1)
            let kept' = if r <= peak then links : kept else [links]
            _ <- evaluate (sum (map (sum . map length) kept'))
            go (r + 1) kept'
  final <- go 1 []
  print (length final, sum table `mod` 7)
