/* help.c -- what the command line prints instead of a run, on standard
 * output: --help (the synopsis, one line per option of the option table in
 * cli.c, the formats from the library's table in format.c, the notes on
 * hp2ps's flags and exit codes) and --version.
 */
#include "cli.h"

#include "names.h"

#include <stdio.h>

/* --help's names of the formats, from the library's table (format.c):
 * the pictures ("PostScript") and the other formats it names ("CSV"). */
static const char *picture_help_name(const hp2x_format_info *row) {
  return row->writer == HP2X_WRITER_PICTURE ? row->long_name : NULL;
}

static const char *conversion_help_name(const hp2x_format_info *row) {
  return row->writer != HP2X_WRITER_PICTURE ? row->long_name : NULL;
}

/* What hp2x draws and writes, and what it writes without -o: the formats
 * named from the table, the default output's from hp2x_options_init. */
static void print_help_formats(void) {
  char pictures[128], conversions[64], paged[64];
  hp2x_format_list(pictures, sizeof pictures, picture_help_name, "", ", ",
                   " or ");
  hp2x_format_list(conversions, sizeof conversions, conversion_help_name, "",
                   ", ", " or ");
  hp2x_format_list(paged, sizeof paged, names_format_paged_label, "", ", ",
                   " and ");
  hp2x_options defaults;
  hp2x_options_init(&defaults);
  printf("Draw a GHC heap profile (.hp or eventlog) as %s,\nor convert it "
         "to %s text.  Without -o, writes BASE.%s (and BASE.aux)\nin the "
         "current directory, as hp2ps does; without FILE, reads standard "
         "input\nand writes standard output.\n"
         "Several FILEs are compared: one band selection and one colour per "
         "label for all,\nshared scales; %s get a page each, -o "
         "'DIR/' or 'NAME-%%s.svg' a file\neach (%%s = the input's base "
         "name), CSV one file with an input column.\n"
         "-o NAME.html writes an interactive report in one file that "
         "opens offline: the\npicture with hover, hidden bands and "
         "zoom, the --summary table of the run or the\nzoom, and the "
         "bands of the census a click picks.\n"
         "-o NAME.pb.gz writes one census (the peak, or --at's) as a "
         "pprof profile of its\nstacks, for go tool pprof, speedscope and "
         "Pyroscope.\n",
         pictures, conversions, names_format_ext(defaults.format), paged);
}

void cli_print_help(void) {
  printf("Usage: hp2x [OPTION]... [FILE[.hp] | FILE.eventlog | -]...\n");
  print_help_formats();
  printf("A service serving its eventlog is read as unix:PATH, tcp:HOST:PORT "
         "or\ntcp:[ADDR]:PORT (IPv6): drawn once when it closes the "
         "connection (or at\nSIGINT), or followed with --watch; a file of "
         "such a name is ./unix:NAME.\n\n");
  char left[64];
  const char *help;
  for (size_t i = 0; cli_help_row(i, left, sizeof left, &help); i++)
    printf("  %-28s %s\n", left, help);
  printf("\nhp2ps's flags work as in hp2ps: values are glued to the letter "
         "(-m5, -t0.5,\n-e15cm; -e 15cm also works), and a letter other "
         "than -p takes the rest of its\nargument (-cg is -c).\n"
         "Exit status: 0 success (also for an incomplete profile, or an "
         "eventlog with a\ncorrupt event that cost a census, with a "
         "warning), 1 bad input or I/O failure,\n2 usage error.\n");
}

void cli_print_version(void) { printf("hp2x %s\n", HP2X_VERSION); }
