/*
 * config.h - every tunable of the runtime in one place.
 */
#ifndef PS_RT_CONFIG_H
#define PS_RT_CONFIG_H

/* Events per rank when \OPEN0 / ps_init does not say (40 bytes each). */
#define PS_TRACE_DEFAULT_CAPACITY (1L << 20)
/* -s and -i when neither the command line nor the program says. */
#define PS_DEFAULT_PROBLEM_SIZE 100
#define PS_DEFAULT_ITERATIONS 1
/* Construct names a program may register (built-in ones included). */
#define PS_MAX_CONSTRUCTS 1024
#define PS_MAX_SECTION_DEPTH 64
/* Clock synchronisation: ping-pongs per rank pair at start and at end; the
 * one with the smallest round trip gives the offset. */
#define PS_CLOCKSYNC_ROUNDS 24
/* Stack frames a rank killed by a signal writes into its died marker. */
#define PS_DIED_FRAMES 48
/* ... on a signal stack of this many bytes (a stack overflow leaves none). */
#define PS_DIED_ALTSTACK (64L << 10)
/* Nonblocking requests outstanding per rank before the table grows. */
#define PS_REQUEST_TABLE_INITIAL 1024
/* a request's handle is its number on the rank, kept in a ps_request's 31 bits (it wraps after 2^31) */
#define PS_REQUEST_HANDLE_MASK 0x7fffffffu
/* Largest single MPI message used when gathering traces (bytes). */
#define PS_GATHER_CHUNK (64L << 20)
/* Scratch space (for messages whose content does not matter) allocated and
 * touched at ps_init, bytes. */
#define PS_SCRATCH_INITIAL (2L << 20)
/* The runtime's own mappings from this size on (the trace buffer, large
 * scratch areas) ask for huge pages (firsttouch.c, ps__map_present). */
#define PS_MAP_HUGE_MIN (2L << 20)
/* The set-up's memory is touched before the timed interval (firsttouch.c),
 * except mappings larger than this: address space reserved, not allocated. */
#define PS_FIRST_TOUCH_MAX_MAPPING (1UL << 30)
/* Mappings remembered at ps_init, to tell the set-up's memory from the rest. */
#define PS_FIRST_TOUCH_KNOWN 512
/* program and library files whose read-only pages are mapped then */
#define PS_FIRST_TOUCH_IMAGES 256
/* After the set-up, one round of messages with the ring neighbours (64
 * bytes and this many) warms the caches again; its tag is the runtime's. */
#define PS_SETUP_WARMUP_BYTES 16384
#define PS_SETUP_WARMUP_TAG 0x7ff3
/* ... and this many messages outstanding at once each way. */
#define PS_SETUP_WARMUP_REQUESTS 64
/* The warm-up before the timed interval: PS_WARMUP_ALL_PAIRS and
 * PS_WARMUP_SIZES in trace/trace.h, which the simulator reads too. */
/* Every program linked with the runtime holds this string (rt.c), so that
 * parscope can tell one from any other file before launching it. */
#define PS_RUNTIME_MARK "parscope runtime: programs linked with it report their own trace"
/* Exit status of a rank that hit --timeout. */
#define PS_EXIT_TIMEOUT 124

#endif
