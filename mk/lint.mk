# mk/lint.mk -- `make lint` and `make format` (docs/STYLE.md).
#   make lint     the style rules, on the tree and the objects of BUILD:
#                 formatting (clang-format 14; skipped, saying so, where
#                 another version is installed), line width, the globals'
#                 prefixes (mk/prefixes.txt), each file's opening comment;
#                 run by `make check` and .ci/run
#   make format   formats every C file with clang-format 14 (.clang-format)
# CLANG_FORMAT=PROG names the clang-format to use; NM=PROG the nm.

NM ?= nm
CLANG_FORMAT ?=
LINT := python3 mk/lint.py --top . --nm '$(NM)' \
        $(if $(CLANG_FORMAT),--clang-format '$(CLANG_FORMAT)')

.PHONY: lint format
lint: $(LIB_OBJ) $(TOOL_OBJ) $(TEXT_LIB_OBJ) $(LEAN_OBJ)
	@$(LINT) --build $(BUILD)

format:
	@$(LINT) --format
