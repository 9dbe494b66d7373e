/*
 * assert.h - PS_ASSERT(cond): an internal invariant (the event queue's
 * order, a buffer's bounds, a matched pair's keys), checked in debug builds
 * and compiled out of release builds (NDEBUG, as CMake's Release and
 * RelWithDebInfo set it), as Lua's lua_assert.
 *
 * Not for input: a bad file, option or program is a checked error with a
 * message (util.h's error convention) in every build.  A failed assertion is
 * a bug in parscope: it names the place and aborts.
 */
#ifndef PS_ASSERT_H
#define PS_ASSERT_H

_Noreturn void ps__assert_failed(const char *cond, const char *file, int line, const char *func);

#ifdef NDEBUG
/* not evaluated, but still compiled: names in it stay checked and used */
#define PS_ASSERT(cond) ((void)sizeof(!(cond)))
#else
#define PS_ASSERT(cond) ((cond) ? (void)0 : ps__assert_failed(#cond, __FILE__, __LINE__, __func__))
#endif

#endif
