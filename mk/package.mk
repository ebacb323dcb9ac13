# package.mk -- releases and the Debian package (docs/RELEASE.md).
#   make dist     build/hp2x-VERSION.tar.gz: the tree's files as git
#                 tracks them (outside a git checkout of this tree, as in
#                 make deb's copy: every file but build/ and node_modules/),
#                 reproducibly: names sorted, owner root,
#                 modes normalised, every date the top debian/changelog
#                 entry's, gzip without name or date
#   make deb      that tarball unpacked in build/deb/ and built there with
#                 dpkg-buildpackage -us -uc -b: the .deb files (-dbgsym
#                 ones included), .buildinfo and .changes left in
#                 build/deb/, then lintian on them where it is installed
#                 (an error or a warning fails it).  DEB_BUILD_OPTIONS as dpkg's (nocheck:
#                 without the build-time tests); HP2X_WERROR=1 keeps
#                 -Werror in the package build (debian/rules)
#   make symbols  debian/libhp2xN.symbols brought up to the exports of
#                 BUILD's libhp2x.so (mk/symbols.sh): a new export gets
#                 this version; each change printed, for the diff
# VERSION is hp2x.h's; debian/changelog's top entry must be the same
# (tests/e2e/test_package.sh).

# The top changelog entry's date, in seconds (SOURCE_DATE_EPOCH of the
# tarball and of the package build).
CHANGELOG_DATE = $(shell sed -n '/^ -- /{s/.*>  //p;q}' debian/changelog)
DIST_EPOCH = $(shell date -u -d '$(CHANGELOG_DATE)' +%s)
DIST := build/hp2x-$(VERSION).tar.gz
DEB_DIR := build/deb
SYMBOLS := debian/libhp2x$(VERSION_MAJOR).symbols

.PHONY: dist deb symbols
dist:
	@mkdir -p build
	$(Q)if [ "$$(git rev-parse --show-toplevel 2> /dev/null)" = "$(CURDIR)" ]; then \
	  git ls-files -z; \
	else \
	  find . \( -path ./build -o -path ./.git -o -name node_modules \) -prune \
	    -o -type f -print0 | sed -z 's|^\./||'; \
	fi | LC_ALL=C sort -z | LC_ALL=C tar --null -T - --format=gnu \
	  --transform='s|^|hp2x-$(VERSION)/|' --mtime=@$(DIST_EPOCH) \
	  --owner=0 --group=0 --numeric-owner --mode='u+rw,go=rX,a-s' -cf - | \
	  gzip -n > $(DIST).tmp
	$(Q)mv -f $(DIST).tmp $(DIST)
	@echo "  DIST    $(DIST)"

deb: dist
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)
	$(Q)tar -C $(DEB_DIR) -xzf $(DIST)
	$(Q)cd $(DEB_DIR)/hp2x-$(VERSION) && \
	  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL dpkg-buildpackage -us -uc -b -Jauto
	$(Q)rm -rf $(DEB_DIR)/hp2x-$(VERSION)
	$(Q)if command -v lintian > /dev/null; then \
	  lintian --fail-on error,warning --info $(DEB_DIR)/*.changes; \
	else \
	  echo "make deb: no lintian here (make deps installs it): not checked"; \
	fi
	@ls -1 $(DEB_DIR)/*.deb

symbols: $(BUILD)/libhp2x.so
	$(Q)sh mk/symbols.sh $(BUILD)/libhp2x.so.$(VERSION) $(SONAME) $(VERSION) \
	    $(SYMBOLS)
