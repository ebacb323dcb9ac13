/* err.c -- the hp2x_err record: setting the first error, status names, and
 * quoting input bytes safely into messages.  Printing is the tool's job.
 */
#include "base.h"
#include "textout.h"

#include <stdio.h>
#include <string.h>

void hp2x_err_init(hp2x_err *err) {
  if (!err) return;
  memset(err, 0, sizeof *err);
  err->code = HP2X_OK;
  err->offset = -1;
}

const char *hp2x_status_name(hp2x_status code) {
  switch (code) {
  case HP2X_OK: return "ok";
  case HP2X_E_IO: return "I/O error";
  case HP2X_E_SYNTAX: return "syntax error";
  case HP2X_E_LIMIT: return "limit exceeded";
  case HP2X_E_NOMEM: return "out of memory";
  case HP2X_E_CAIRO: return "drawing error";
  case HP2X_E_ARG: return "invalid argument";
  case HP2X_E_NO_PROFILE: return "no heap profile";
  case HP2X_E_NO_CENSUS: return "no census";
  }
  return "unknown error";
}

hp2x_status hpx_fail(hp2x_err *err, hp2x_status code, long line,
                     long long offset, const char *fmt, ...) {
  if (!err || err->code != HP2X_OK) return code;
  err->code = code;
  err->line = line;
  err->offset = offset;
  va_list ap;
  va_start(ap, fmt);
  hpx_vfmt(err->msg, sizeof err->msg, fmt, ap); /* numbers as in "C" */
  va_end(ap);
  return code;
}

hp2x_status hpx_nomem(hp2x_err *err) {
  return hpx_fail(err, HP2X_E_NOMEM, 0, -1, "out of memory");
}

void hpx_quote_bytes(char *dst, size_t dst_size, const char *s, size_t len) {
  static const char hex[] = "0123456789abcdef";
  if (!dst_size) return;
  size_t o = strlen(dst);
  for (size_t i = 0; i < len && o + 5 < dst_size; i++) {
    unsigned char c = (unsigned char)s[i];
    if (hpx_is_plain_ascii(c)) {
      dst[o++] = (char)c;
    } else {
      dst[o++] = '\\';
      dst[o++] = 'x';
      dst[o++] = hex[c >> 4];
      dst[o++] = hex[c & 15];
    }
  }
  if (o < dst_size) dst[o] = '\0';
}
