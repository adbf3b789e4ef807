# The installation: `make install` and `make uninstall`, under DESTDIR, to PREFIX, LIBDIR and the
# other directories of the top Makefile.

.PHONY: install uninstall

# The CMake package (cmake/*.cmake.in), written to directory $(1): the paths of LIBDIR and
# INCLUDEDIR relative to CMAKEDIR, so that the installation can be staged or moved; the system
# libraries of the static library as a CMake list; the pointer size from the library's ELF class.
CMAKE_REL = $(shell realpath -m -s --relative-to=$(CMAKEDIR) $(1))
define write_cmake
	sed -e 's|@CMAKE_REL_LIBDIR@|$(call CMAKE_REL,$(LIBDIR))|' \
	    -e 's|@CMAKE_REL_INCLUDEDIR@|$(call CMAKE_REL,$(INCLUDEDIR))|' \
	    -e "s|@CMAKE_STATIC_LIBS@|$$(tr -s ' ' ';' < $(BUILD)/native-static-libs)|" \
	    -e 's|@MAJOR@|$(MAJOR)|' cmake/libutf8-config.cmake.in > $(1)/libutf8-config.cmake
	class=$$(od -An -tu1 -j4 -N1 $(TARGET)/libutf8.so | tr -d ' '); \
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@MAJOR@|$(MAJOR)|' \
	    -e "s|@SIZEOF_VOID_P@|$$((class * 4))|" -e "s|@BITS@|$$((class * 32))|" \
	    cmake/libutf8-config-version.cmake.in > $(1)/libutf8-config-version.cmake
	chmod 0644 $(1)/libutf8-config.cmake $(1)/libutf8-config-version.cmake
endef

# One man page name per function of libutf8(3) (its .SS sections, which check-man matches with
# the exported symbols), linked to that page, so that `man utf8_validate` finds it.
MAN3_LINKS := $(shell sed -n 's/^\.SS \([a-z0-9_]*\)()$$/\1/p' man/libutf8.3)

# Installs what `make` built; it builds only what is missing or older than its sources.
install: $(BUILD)/utf8check
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	  $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 0755 $(TARGET)/libutf8.so $(DESTDIR)$(LIBDIR)/$(REALNAME)
	ln -sf $(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libutf8.so
	install -m 0644 $(TARGET)/libutf8.a $(DESTDIR)$(LIBDIR)/libutf8.a
	install -m 0644 include/libutf8.h $(DESTDIR)$(INCLUDEDIR)/libutf8.h
	$(call write_pc,$(DESTDIR)$(PKGCONFIGDIR)/libutf8.pc)
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/libutf8.pc
	$(call write_cmake,$(DESTDIR)$(CMAKEDIR))
	install -m 0755 $(BUILD)/utf8check $(DESTDIR)$(BINDIR)/utf8check
	install -m 0644 man/utf8check.1 $(DESTDIR)$(MANDIR)/man1/utf8check.1
	install -m 0644 man/libutf8.3 $(DESTDIR)$(MANDIR)/man3/libutf8.3
	for f in $(MAN3_LINKS); do ln -sf libutf8.3 $(DESTDIR)$(MANDIR)/man3/$$f.3; done

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	      $(DESTDIR)$(LIBDIR)/libutf8.so $(DESTDIR)$(LIBDIR)/libutf8.a \
	      $(DESTDIR)$(INCLUDEDIR)/libutf8.h $(DESTDIR)$(PKGCONFIGDIR)/libutf8.pc \
	      $(DESTDIR)$(CMAKEDIR)/libutf8-config.cmake \
	      $(DESTDIR)$(CMAKEDIR)/libutf8-config-version.cmake \
	      $(DESTDIR)$(BINDIR)/utf8check $(DESTDIR)$(MANDIR)/man1/utf8check.1 \
	      $(DESTDIR)$(MANDIR)/man3/libutf8.3 $(MAN3_LINKS:%=$(DESTDIR)$(MANDIR)/man3/%.3)
	@# CMAKEDIR is libutf8's own directory, which `make install` created: removed once empty.
	@# The other directories are shared with other packages, and stay.
	rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
