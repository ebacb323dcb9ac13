/* main.c -- the hp2x executable's entry point; everything else of the tool
 * is in cli.c (arguments, messages, one-shot runs) and watch.c.
 */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
