/* format.c -- what kind of output each hp2x_format is: a picture, drawn by
 * render.c, or text written by the CSV, .hp and summary writers; which
 * hold several pages; which need a band selection.  A leaf: drawing, the
 * follower, output.c and the tool ask it, it asks no one.
 */
#include "hp2x.h"

int hp2x_format_is_picture(hp2x_format f) {
  switch (f) {
  case HP2X_FORMAT_PS:
  case HP2X_FORMAT_EPS:
  case HP2X_FORMAT_PDF:
  case HP2X_FORMAT_SVG:
  case HP2X_FORMAT_PNG: return 1;
  case HP2X_FORMAT_CSV:
  case HP2X_FORMAT_HP:
  case HP2X_FORMAT_TXT: return 0;
  }
  return 0;
}

int hp2x_format_has_pages(hp2x_format f) {
  return f == HP2X_FORMAT_PS || f == HP2X_FORMAT_PDF;
}

int hp2x_format_needs_bands(hp2x_format f) {
  return f != HP2X_FORMAT_HP;
}
