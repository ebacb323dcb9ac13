# testhooks.mk -- the test builds of libhp2x and the tool, with the
# fault-injection hook (alloc.c's hpx_alloc_fail_at, compiled under
# -DHPX_TEST_HOOKS): BUILD/libhp2x-hooks.a, which the unit tests link, and
# BUILD/hp2x-faults, the tool with a main of the tests' own
# (tests/hooks/faults_main.c, reading HP2X_ALLOC_FAIL_AT), which
# tests/e2e/test_faults.sh and test_aids_faults.sh run.  The shipped
# BUILD/hp2x and BUILD/libhp2x.a are built without the hook.  Only alloc.c
# and main differ: every other object is shared.

HOOKS_CFLAGS := -DHPX_TEST_HOOKS

$(BUILD)/obj/base/alloc-hooks.o: src/base/alloc.c mk/testhooks.mk
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $< (test hooks)")
	$(Q)$(CC) $(ALL_CFLAGS) $(LIB_INC) $(HOOKS_CFLAGS) $(DEPFLAGS) -c $< -o $@

$(BUILD)/obj/tests/faults_main.o: tests/hooks/faults_main.c mk/testhooks.mk
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(LIB_INC) $(TOOL_INC) -Itests/hooks $(DEPFLAGS) -c $< -o $@

$(HOOKS_LIB): $(filter-out $(BUILD)/obj/base/alloc.o,$(LIB_OBJ)) $(BUILD)/obj/base/alloc-hooks.o
	@rm -f $@
	$(Q)ar rcs $@ $^

HOOKS_TOOL_OBJ := $(filter-out $(BUILD)/obj/tool/main.o,$(TOOL_OBJ)) \
                  $(BUILD)/obj/tests/faults_main.o
$(BUILD)/hp2x-faults: $(HOOKS_TOOL_OBJ) $(HOOKS_LIB)
	@$(if $(V),,echo "  CCLD    $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(HOOKS_TOOL_OBJ) $(HOOKS_LIB) $(LDLIBS) \
	    $(TOOL_LIBS)

-include $(BUILD)/obj/base/alloc-hooks.d $(BUILD)/obj/tests/faults_main.d
