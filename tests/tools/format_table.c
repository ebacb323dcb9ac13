/* format_table.c -- prints libhp2x's table of formats, one row a line:
 * name, label, long name ("-" when none), "picture" or "text" (any other
 * output: text or data), "several"
 * when one file holds several inputs (else "one") and "bands" when it
 * needs a band selection (else "-"), tab separated, in the table's order
 * (hp2x_format_row); then checks that every hp2x_format value below the
 * row count has its row, and exits 1 with a message when one has none.
 * tests/e2e/test_format_lists.sh compares the lists the tests, hp2x.h and
 * the man page spell out with it.
 */
#include "hp2x.h"

#include <stdio.h>

int main(void) {
  size_t n = 0;
  for (const hp2x_format_info *r; (r = hp2x_format_row(n)) != NULL; n++)
    printf("%s\t%s\t%s\t%s\t%s\t%s\n", r->name, r->label,
           r->long_name ? r->long_name : "-",
           hp2x_format_is_picture(r->format) ? "picture" : "text",
           r->holds_several ? "several" : "one",
           r->needs_bands ? "bands" : "-");
  for (size_t f = 0; f < n; f++)
    if (!hp2x_format_of((hp2x_format)f)) {
      fprintf(stderr, "format_table: hp2x_format %zu has no row\n", f);
      return 1;
    }
  return 0;
}
