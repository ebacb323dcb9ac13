/* program.c -- --program=EXE: the executable read with elfutils' libelf
 * (its sections, the bytes of those holding code, its symbol table) into
 * the library's hp2x_symbols, which names a -hi profile's bare info-table
 * addresses; what that gave is said once a run.  Without --program, a
 * profile with bare addresses gets one note that --program names them.
 * .hp output keeps GHC's labels: nothing is named or said for it.
 * A malformed executable is bad input: a message, exit 1.
 */
#include "program.h"

#include "util/messages.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What has been said this run (each at most once). */
static struct { int hint, stripped, no_bias, wrong, outside; } said;

/* "PATH: malformed ELF: why" and EXIT_BAD_INPUT. */
static int bad_elf(const char *path, const char *what) {
  msg_errorf("%s: %s: %s", path, what, elf_errmsg(-1));
  return EXIT_BAD_INPUT;
}

/* Adds e's allocated sections, with the bytes of those holding code. */
static int add_sections(Elf *e, const char *path, hp2x_symbols *s) {
  Elf_Scn *scn = NULL;
  hp2x_err err;
  while ((scn = elf_nextscn(e, scn)) != NULL) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) return bad_elf(path, "unreadable section");
    if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0) continue;
    const void *bytes = NULL;
    if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_type != SHT_NOBITS) {
      Elf_Data *d = elf_getdata(scn, NULL);
      if (!d || d->d_size != sh.sh_size || !d->d_buf)
        return bad_elf(path, "section contents not in the file");
      bytes = d->d_buf;
    }
    hp2x_err_init(&err);
    if (hp2x_symbols_add_section(s, (uint32_t)elf_ndxscn(scn), sh.sh_addr,
                                 sh.sh_size, bytes, &err) != HP2X_OK) {
      msg_report(path, &err, NULL);
      return EXIT_BAD_INPUT;
    }
  }
  return EXIT_OK;
}

/* Adds the symbols of symbol table scn (section header sh) that lie in
 * one of the sections added. */
static int add_symbols(Elf *e, const char *path, Elf_Scn *scn,
                       const GElf_Shdr *sh, hp2x_symbols *s) {
  Elf_Data *d = elf_getdata(scn, NULL);
  if (!d || sh->sh_entsize == 0) return bad_elf(path, "bad symbol table");
  size_t n = d->d_size / sh->sh_entsize;
  hp2x_err err;
  for (size_t i = 0; i < n; i++) {
    GElf_Sym y;
    if (!gelf_getsym(d, (int)i, &y)) return bad_elf(path, "bad symbol");
    int type = GELF_ST_TYPE(y.st_info);
    if (y.st_shndx == SHN_UNDEF || y.st_shndx >= SHN_LORESERVE ||
        (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE))
      continue;
    const char *name = elf_strptr(e, sh->sh_link, y.st_name);
    if (!name || !*name) continue;
    hp2x_err_init(&err);
    hp2x_status st =
        hp2x_symbols_add(s, name, y.st_value, y.st_size, y.st_shndx, &err);
    if (st == HP2X_E_NOMEM) {
      msg_report(path, &err, NULL);
      return EXIT_BAD_INPUT;
    } /* HP2X_E_ARG: in a section not loaded; not a table's */
  }
  return EXIT_OK;
}

/* Reads the open ELF e into a new *out. */
static int read_elf(Elf *e, const char *path, uint64_t size,
                    hp2x_symbols **out) {
  GElf_Ehdr eh;
  if (elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh)) {
    msg_errorf("%s: not an ELF executable", path);
    return EXIT_BAD_INPUT;
  }
  if (eh.e_shnum == 0 || eh.e_shentsize == 0 || eh.e_shoff > size ||
      (uint64_t)eh.e_shnum * eh.e_shentsize > size - eh.e_shoff) {
    msg_errorf("%s: truncated or malformed ELF: its section headers are "
               "not in the file",
               path);
    return EXIT_BAD_INPUT;
  }
  if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
    msg_errorf("%s: not an executable (ELF type %u)", path,
               (unsigned)eh.e_type);
    return EXIT_BAD_INPUT;
  }
  int cls = gelf_getclass(e);
  hp2x_err err;
  hp2x_err_init(&err);
  if (hp2x_symbols_new(cls == ELFCLASS32 ? 4 : 8,
                       eh.e_ident[EI_DATA] == ELFDATA2MSB, eh.e_type == ET_DYN,
                       out, &err) != HP2X_OK) {
    msg_report(path, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  int rc = add_sections(e, path, *out);
  Elf_Scn *scn = NULL;
  while (rc == EXIT_OK && (scn = elf_nextscn(e, scn)) != NULL) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh))
      rc = bad_elf(path, "unreadable section");
    else if (sh.sh_type == SHT_SYMTAB)
      rc = add_symbols(e, path, scn, &sh, *out);
  }
  return rc;
}

int program_load(const char *path, hp2x_symbols **out) {
  *out = NULL;
  if (elf_version(EV_CURRENT) == EV_NONE) return bad_elf(path, "libelf");
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    msg_errorf("%s: cannot open: %s", path, strerror(errno));
    return EXIT_BAD_INPUT;
  }
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    msg_errorf("%s: not a regular file", path);
    close(fd);
    return EXIT_BAD_INPUT;
  }
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  int rc = e ? read_elf(e, path, (uint64_t)sb.st_size, out)
             : bad_elf(path, "not readable as ELF");
  if (e) elf_end(e);
  close(fd);
  if (rc != EXIT_OK) {
    hp2x_symbols_free(*out);
    *out = NULL;
  }
  return rc;
}

/* One line about input `display`: "hp2x: DISPLAY: WHAT: text". */
static void say(const char *display, const char *what, const char *text) {
  hp2x_err e;
  hp2x_err_init(&e);
  snprintf(e.msg, sizeof e.msg, "%s", text);
  msg_report(display, &e, what);
}

/* What naming left undone, said once a run. */
static void say_verdict(const char *program, const char *display,
                        const hp2x_tables_report *r) {
  char text[256];
  if (r->verdict == HP2X_TABLES_NO_SYMBOLS && !said.stripped++) {
    snprintf(text, sizeof text,
             "%s has no symbol table (stripped): its info tables keep their "
             "addresses",
             program);
    say(display, "warning", text);
  } else if (r->verdict == HP2X_TABLES_NO_BIAS && !said.no_bias++) {
    snprintf(text, sizeof text,
             "%s is position-independent, and no IPE record here tells "
             "where it was loaded (a .hp has none; its eventlog does): "
             "addresses kept",
             program);
    say(display, "warning", text);
  } else if (r->verdict == HP2X_TABLES_WRONG_PROGRAM && !said.wrong++) {
    if (4 * r->ipe_disagreeing > r->ipe_checked)
      snprintf(text, sizeof text,
               "%s is not the program that ran: it places %zu of %zu tables "
               "otherwise than their IPE records (first 0x%llx); nothing "
               "named",
               program, r->ipe_disagreeing, r->ipe_checked,
               (unsigned long long)r->disagrees);
    else
      snprintf(text, sizeof text,
               "%s is not the program that ran: fewer than half of the "
               "addresses in it land on an info table; nothing named",
               program);
    say(display, "warning", text);
  } else if (r->verdict == HP2X_TABLES_NAMED && r->outside + r->off_table &&
             !said.outside++) {
    snprintf(text, sizeof text,
             "%zu of %zu info-table addresses not named: %zu outside %s "
             "(a -dynamic build's library tables), %zu on no table in it",
             r->outside + r->off_table, r->bare, r->outside, program,
             r->off_table);
    say(display, "note", text);
  }
}

int program_name_tables(const char *program, const hp2x_symbols *syms,
                        hp2x_format format, int quiet, const char *display,
                        hp2x_profile *p) {
  if (format == HP2X_FORMAT_HP) return EXIT_OK; /* GHC's labels */
  if (!syms) {
    size_t n = hp2x_profile_bare_tables(p);
    if (n && !quiet && !said.hint++) {
      char text[200];
      snprintf(text, sizeof text,
               "%zu info table(s) without an IPE record show as addresses; "
               "--program=EXE names them from the program's symbols",
               n);
      say(display, "note", text);
    }
    return EXIT_OK;
  }
  hp2x_err err;
  hp2x_err_init(&err);
  hp2x_tables_report r;
  if (hp2x_profile_name_tables(p, syms, &r, &err) != HP2X_OK) {
    msg_report(display, &err, NULL);
    return EXIT_BAD_INPUT;
  }
  if (!quiet) say_verdict(program, display, &r);
  return EXIT_OK;
}
