/* main.c -- the hp2x executable's entry point: the whole run is tool_main
 * (entry.c), which the test build (tests/hooks/faults_main.c) calls from a
 * main of its own.
 */
#include "run/run.h"

int main(int argc, char **argv) { return tool_main(argc, argv); }
