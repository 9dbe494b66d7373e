/* otf2_check.c ARCHIVE - reads an OTF2 archive back through the OTF2 reader
 * API and checks what Vampir and wait-state analyses rely on:
 *   - on every location, Enter and Leave nest and timestamps never go back;
 *     every timestamp lies inside the clock properties' window and each
 *     location holds as many events as its definition says;
 *   - each MPI record sits in the region of the call that makes it
 *     (MpiIsend in MPI_Isend, MpiIrecv in MPI_Wait or MPI_Waitall, ...), and
 *     every MPI call region sits in a construct's region;
 *   - every MpiIsendComplete completes an earlier MpiIsend of its location
 *     with the same request id, every MpiIrecv an earlier MpiIrecvRequest;
 *   - per (sender, receiver, tag) as many messages are sent as received.
 * Then it prints one "name count" line per record kind for the caller to
 * compare with parscope's own sheet.  Exit status 0, or 1 with the failures. */
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXLOC 64
#define MAXDEPTH 64
#define MAXREQ 1000000
#define MAXSTR 4096
#define MAXREG 1024
#define MAXCHAN 4096

static char *strs[MAXSTR];
static uint32_t reg_name[MAXREG];
static OTF2_Paradigm reg_paradigm[MAXREG];
static uint64_t loc_events_def[MAXLOC], loc_events[MAXLOC];
static uint64_t clk_offset, clk_length;
static int failures;

typedef struct locstate {
    uint32_t stack[MAXDEPTH];
    int      depth;
    uint64_t last;
    unsigned char *isend_open, *irecv_open; /* by request id */
} locstate;
static locstate L[MAXLOC];

static struct { uint32_t s, d, tag; long sent, recv; } chan[MAXCHAN];
static int nchan;

static long n_send, n_isend, n_isend_done, n_irecv_req, n_irecv, n_recv, n_coll_begin, n_coll_end, n_barrier,
    n_allreduce, n_waitall_regions, n_enter;
static uint64_t allreduce_sent, allreduce_recv;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    if (failures++ < 20) {
        va_list ap;
        va_start(ap, fmt);
        fputs("otf2_check: ", stderr);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

static const char *rname(uint32_t r)
{
    return r < MAXREG && reg_name[r] < MAXSTR && strs[reg_name[r]] ? strs[reg_name[r]] : "?";
}

static locstate *loc(OTF2_LocationRef l, OTF2_TimeStamp t)
{
    if (l >= MAXLOC) {
        fprintf(stderr, "otf2_check: location %llu: more than %d locations\n", (unsigned long long)l, MAXLOC);
        exit(1);
    }
    locstate *s = &L[l];
    if (!s->isend_open) {
        s->isend_open = calloc(MAXREQ, 1);
        s->irecv_open = calloc(MAXREQ, 1);
    }
    if (t < s->last) fail("location %llu: timestamp %llu after %llu", (unsigned long long)l, (unsigned long long)t,
                          (unsigned long long)s->last);
    if (t < clk_offset || t > clk_offset + clk_length)
        fail("location %llu: timestamp %llu outside the clock properties' window", (unsigned long long)l,
             (unsigned long long)t);
    s->last = t;
    loc_events[l]++;
    return s;
}

/* The innermost region must be one of the names given (NULL-terminated). */
static void in_region(locstate *s, OTF2_LocationRef l, const char *what, ...)
{
    const char *top = s->depth ? rname(s->stack[s->depth - 1]) : "(none)";
    va_list ap;
    va_start(ap, what);
    for (const char *n; (n = va_arg(ap, const char *));)
        if (!strcmp(n, top)) {
            va_end(ap);
            return;
        }
    va_end(ap);
    fail("location %llu: %s inside region %s", (unsigned long long)l, what, top);
}

static void message(uint32_t s, uint32_t d, uint32_t tag, int is_send)
{
    for (int i = 0; i < nchan; i++)
        if (chan[i].s == s && chan[i].d == d && chan[i].tag == tag) {
            if (is_send) chan[i].sent++;
            else chan[i].recv++;
            return;
        }
    if (nchan == MAXCHAN) {
        fail("more than %d channels", MAXCHAN);
        return;
    }
    chan[nchan].s = s;
    chan[nchan].d = d;
    chan[nchan].tag = tag;
    chan[nchan].sent = is_send;
    chan[nchan].recv = !is_send;
    nchan++;
}

#define CB(name, ...) static OTF2_CallbackCode name(OTF2_LocationRef l, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al, __VA_ARGS__)

CB(on_enter, OTF2_RegionRef r)
{
    (void)ud, (void)al;
    locstate *s = loc(l, t);
    if (s->depth == MAXDEPTH) {
        fail("location %llu: regions nested deeper than %d", (unsigned long long)l, MAXDEPTH);
        return OTF2_CALLBACK_INTERRUPT;
    }
    if (r < MAXREG && reg_paradigm[r] == OTF2_PARADIGM_MPI) {
        /* an MPI call sits in its construct's region */
        if (!s->depth || reg_paradigm[s->stack[s->depth - 1]] == OTF2_PARADIGM_MPI)
            fail("location %llu: %s at %llu is not inside a construct's region", (unsigned long long)l, rname(r),
                 (unsigned long long)t);
        if (!strcmp(rname(r), "MPI_Barrier")) n_barrier++;
        if (!strcmp(rname(r), "MPI_Allreduce")) n_allreduce++;
        if (!strcmp(rname(r), "MPI_Waitall")) n_waitall_regions++;
    }
    s->stack[s->depth++] = r;
    n_enter++;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_leave, OTF2_RegionRef r)
{
    (void)ud, (void)al;
    locstate *s = loc(l, t);
    if (!s->depth || s->stack[s->depth - 1] != r)
        fail("location %llu: leaves %s at %llu but is in %s", (unsigned long long)l, rname(r), (unsigned long long)t,
             s->depth ? rname(s->stack[s->depth - 1]) : "(none)");
    else s->depth--;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_send, uint32_t to, OTF2_CommRef c, uint32_t tag, uint64_t len)
{
    (void)ud, (void)al, (void)c, (void)len;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiSend", "MPI_Send", (char *)NULL);
    message((uint32_t)l, to, tag, 1);
    n_send++;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_isend, uint32_t to, OTF2_CommRef c, uint32_t tag, uint64_t len, uint64_t req)
{
    (void)ud, (void)al, (void)c, (void)len;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiIsend", "MPI_Isend", (char *)NULL);
    if (req == 0 || req >= MAXREQ || s->isend_open[req]) fail("location %llu: MpiIsend with request %llu", (unsigned long long)l, (unsigned long long)req);
    else s->isend_open[req] = 1;
    message((uint32_t)l, to, tag, 1);
    n_isend++;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_isend_done, uint64_t req)
{
    (void)ud, (void)al;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiIsendComplete", "MPI_Wait", "MPI_Waitall", (char *)NULL);
    if (req >= MAXREQ || !s->isend_open[req])
        fail("location %llu: MpiIsendComplete of request %llu, which no MpiIsend opened", (unsigned long long)l,
             (unsigned long long)req);
    else s->isend_open[req] = 0;
    n_isend_done++;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_irecv_req, uint64_t req)
{
    (void)ud, (void)al;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiIrecvRequest", "MPI_Irecv", (char *)NULL);
    if (req == 0 || req >= MAXREQ || s->irecv_open[req]) fail("location %llu: MpiIrecvRequest with request %llu", (unsigned long long)l, (unsigned long long)req);
    else s->irecv_open[req] = 1;
    n_irecv_req++;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_irecv, uint32_t from, OTF2_CommRef c, uint32_t tag, uint64_t len, uint64_t req)
{
    (void)ud, (void)al, (void)c, (void)len;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiIrecv", "MPI_Wait", "MPI_Waitall", (char *)NULL);
    if (req >= MAXREQ || !s->irecv_open[req])
        fail("location %llu: MpiIrecv of request %llu, which no MpiIrecvRequest opened", (unsigned long long)l,
             (unsigned long long)req);
    else s->irecv_open[req] = 0;
    message(from, (uint32_t)l, tag, 0);
    n_irecv++;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_recv, uint32_t from, OTF2_CommRef c, uint32_t tag, uint64_t len)
{
    (void)ud, (void)al, (void)c, (void)len;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiRecv", "MPI_Recv", (char *)NULL);
    message(from, (uint32_t)l, tag, 0);
    n_recv++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_coll_begin(OTF2_LocationRef l, OTF2_TimeStamp t, void *ud, OTF2_AttributeList *al)
{
    (void)ud, (void)al;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiCollectiveBegin", "MPI_Barrier", "MPI_Allreduce", (char *)NULL);
    n_coll_begin++;
    return OTF2_CALLBACK_SUCCESS;
}

CB(on_coll_end, OTF2_CollectiveOp op, OTF2_CommRef c, uint32_t root, uint64_t sent, uint64_t recvd)
{
    (void)ud, (void)al, (void)c, (void)root;
    locstate *s = loc(l, t);
    in_region(s, l, "MpiCollectiveEnd", "MPI_Barrier", "MPI_Allreduce", (char *)NULL);
    const char *top = s->depth ? rname(s->stack[s->depth - 1]) : "";
    if ((op == OTF2_COLLECTIVE_OP_BARRIER) != !strcmp(top, "MPI_Barrier"))
        fail("location %llu: collective operation %d in %s", (unsigned long long)l, (int)op, top);
    if (op == OTF2_COLLECTIVE_OP_ALLREDUCE) {
        allreduce_sent += sent;
        allreduce_recv += recvd;
    }
    n_coll_end++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self, const char *str)
{
    (void)ud;
    if (self < MAXSTR) strs[self] = strdup(str);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canon,
                                    OTF2_StringRef descr, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t b, uint32_t e)
{
    (void)ud, (void)canon, (void)descr, (void)role, (void)flags, (void)file, (void)b, (void)e;
    if (self < MAXREG) {
        reg_name[self] = name;
        reg_paradigm[self] = paradigm;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                      uint64_t nev, OTF2_LocationGroupRef group)
{
    (void)name, (void)type, (void)group;
    OTF2_Reader *rd = ud;
    if (self < MAXLOC) loc_events_def[self] = nev;
    OTF2_Reader_SelectLocation(rd, self);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock(void *ud, uint64_t res, uint64_t off, uint64_t len, uint64_t real)
{
    (void)ud, (void)real;
    if (res != 1000000000u) fail("timer resolution %llu, expected 1 ns ticks", (unsigned long long)res);
    clk_offset = off;
    clk_length = len;
    return OTF2_CALLBACK_SUCCESS;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: otf2_check ARCHIVE/traces.otf2\n");
        return 2;
    }
    OTF2_Reader *rd = OTF2_Reader_Open(argv[1]);
    if (!rd) {
        fprintf(stderr, "otf2_check: cannot open %s\n", argv[1]);
        return 1;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(gcb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gcb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gcb, def_clock);
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gdr, gcb, rd);
    uint64_t n;
    if (OTF2_Reader_ReadAllGlobalDefinitions(rd, gdr, &n) != OTF2_SUCCESS) {
        fprintf(stderr, "otf2_check: cannot read the global definitions\n");
        return 1;
    }
    OTF2_GlobalDefReaderCallbacks_Delete(gcb);
    OTF2_Reader_CloseGlobalDefReader(rd, gdr);
    uint64_t nloc = 0;
    OTF2_Reader_GetNumberOfLocations(rd, &nloc);
    OTF2_Reader_OpenEvtFiles(rd);
    for (uint64_t l = 0; l < nloc && l < MAXLOC; l++) OTF2_Reader_GetEvtReader(rd, l);
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(rd);
    OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(ecb, on_enter);
    OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(ecb, on_leave);
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(ecb, on_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(ecb, on_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(ecb, on_isend_done);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(ecb, on_irecv_req);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(ecb, on_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(ecb, on_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveBeginCallback(ecb, on_coll_begin);
    OTF2_GlobalEvtReaderCallbacks_SetMpiCollectiveEndCallback(ecb, on_coll_end);
    OTF2_Reader_RegisterGlobalEvtCallbacks(rd, ger, ecb, NULL);
    if (OTF2_Reader_ReadAllGlobalEvents(rd, ger, &n) != OTF2_SUCCESS) fail("reading the events failed");
    OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
    OTF2_Reader_CloseGlobalEvtReader(rd, ger);
    OTF2_Reader_CloseEvtFiles(rd);
    OTF2_Reader_Close(rd);

    long open_isends = 0, open_irecvs = 0;
    for (uint64_t l = 0; l < nloc && l < MAXLOC; l++) {
        if (L[l].depth) fail("location %llu: %d regions never left", (unsigned long long)l, L[l].depth);
        if (loc_events[l] != loc_events_def[l])
            fail("location %llu: %llu events, its definition says %llu", (unsigned long long)l,
                 (unsigned long long)loc_events[l], (unsigned long long)loc_events_def[l]);
        for (size_t q = 0; L[l].isend_open && q < MAXREQ; q++) {
            open_isends += L[l].isend_open[q];
            open_irecvs += L[l].irecv_open[q];
        }
    }
    for (int i = 0; i < nchan; i++)
        if (chan[i].sent != chan[i].recv)
            fail("messages %u -> %u tag %u: %ld sent, %ld received", chan[i].s, chan[i].d, chan[i].tag, chan[i].sent,
                 chan[i].recv);
    printf("locations %llu\nenter %ld\nsend %ld\nisend %ld\nisend_complete %ld\nirecv_request %ld\nirecv %ld\n"
           "recv %ld\ncollective_begin %ld\ncollective_end %ld\nbarrier %ld\nallreduce %ld\nwaitall %ld\n"
           "allreduce_sent_bytes %llu\nallreduce_received_bytes %llu\nopen_isends %ld\nopen_irecvs %ld\n",
           (unsigned long long)nloc, n_enter, n_send, n_isend, n_isend_done, n_irecv_req, n_irecv, n_recv,
           n_coll_begin, n_coll_end, n_barrier, n_allreduce, n_waitall_regions, (unsigned long long)allreduce_sent,
           (unsigned long long)allreduce_recv, open_isends, open_irecvs);
    if (failures) fprintf(stderr, "otf2_check: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
