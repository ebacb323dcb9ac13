#!/usr/bin/env bash
# test_stream_bytes.sh's growing files: the final --watch output of a file
# growing in chunks, in every format, equals the one-shot render of the
# same bytes, byte for byte (stream_bytes_lib.sh: the inputs and
# chunkings).  Apart because --idle-exit, which ends a .hp's watch, is a
# clock: it runs alone (tests/run-tests.sh).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/e2e/stream_bytes_lib.sh"
transports file
finish
