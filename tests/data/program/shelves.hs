-- shelves.hs: a small library catalogue kept in several containers at once
-- (Data.Sequence, Data.Map, Data.IntMap, Data.Set), with Integer totals and
-- lazy lists, so that a -hi profile holds library info tables (built
-- without -finfo-table-map) beside the program's own.
module Main (main) where

import qualified Data.IntMap.Strict as IM
import qualified Data.Map.Strict as M
import qualified Data.Sequence as Seq
import qualified Data.Set as S
import Data.Foldable (foldl')
import System.Environment (getArgs)
import Text.Read (readMaybe)
import Ledger (entries, total)

data Book = Book { title :: String, shelf :: !Int, pages :: !Integer }

mkBook :: Int -> Book
mkBook i = Book (show i ++ "-" ++ show (i * 7919 `mod` 1000)) (i `mod` 97)
                (fromIntegral i * 1000000007)

step :: (Seq.Seq Book, M.Map String Int, IM.IntMap [Int], S.Set Integer)
     -> Int -> (Seq.Seq Book, M.Map String Int, IM.IntMap [Int], S.Set Integer)
step (sq, m, im, st) i =
  let b = mkBook i
  in ( sq Seq.|> b
     , M.insert (title b) i m
     , IM.insertWith (++) (shelf b) [i] im
     , S.insert (pages b * pages b) st )

main :: IO ()
main = do
  args <- getArgs
  let n = maybe 60000 id (readMaybe =<< (case args of (a:_) -> Just a; _ -> Nothing))
      rounds = [1 .. 6 :: Int]
  let es = entries (4 * n)
  print (length es)
  mapM_ (\r -> do
           let (sq, m, im, st) = foldl' step (Seq.empty, M.empty, IM.empty, S.empty)
                                        [r .. r + n]
               lens = map length (IM.elems im)
           print (Seq.length sq, M.size m, sum lens, S.size st,
                  sum (map pages (foldr (:) [] sq)) `mod` 1000))
        rounds
  print (total es)
