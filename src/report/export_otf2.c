/* export_otf2.c - a trace as an OTF2 archive through libotf2 (see export.h).
 *
 * Layout: system tree "machine" > one location group (MPI process) per rank
 * > one location (its thread).  Every event becomes an Enter/Leave pair of
 * the region "CONSTRUCT activity"; a send carries an MpiSend record right
 * after its Enter, a receive an MpiRecv right before its Leave, both on
 * MPI_COMM_WORLD (communicator 0, whose group lists ranks 0..P-1).
 * Timestamps are nanoseconds since the run's start (ps_export_origin). */
#include "report/export.h"

#include <errno.h>
#include <math.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

enum { REC_LEAVE = 0, REC_POINT = 1, REC_ENTER = 2 }; /* order at one time stamp */

typedef struct rec {
    uint64_t ts;
    uint64_t order; /* tie-break: see rec_cmp */
    uint32_t ev;
    uint8_t  type;
} rec;

/* At one time stamp: leaves, then zero-length events, then enters; among
 * leaves the later-entered (inner) region first; among enters the longer
 * (outer) region first. */
static int rec_cmp(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
    if (x->type != y->type) return x->type < y->type ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->ev < y->ev ? -1 : x->ev > y->ev;
}

static OTF2_FlushType pre_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc, void *cb, bool final)
{
    (void)ud, (void)ft, (void)loc, (void)cb, (void)final;
    return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *ud, OTF2_FileType ft, OTF2_LocationRef loc)
{
    (void)ud, (void)ft, (void)loc;
    return 0;
}

static const OTF2_FlushCallbacks flush_callbacks = {.otf2_pre_flush = pre_flush, .otf2_post_flush = post_flush};

static const char *act_word(int kind)
{
    static const char *w[PS_EV__COUNT] = {"event", "compute", "send", "recv", "post", "wait", "barrier", "mark", "section", "data"};
    return kind > 0 && kind < PS_EV__COUNT ? w[kind] : "event";
}

static OTF2_RegionRole region_role(int kind)
{
    switch (kind) {
    case PS_EV_SEND:
    case PS_EV_RECV:
    case PS_EV_POST:
    case PS_EV_WAIT: return OTF2_REGION_ROLE_POINT2POINT;
    case PS_EV_BARRIER: return OTF2_REGION_ROLE_BARRIER;
    case PS_EV_SECTION: return OTF2_REGION_ROLE_CODE;
    case PS_EV_DATA: return OTF2_REGION_ROLE_DATA_TRANSFER;
    case PS_EV_MARK: return OTF2_REGION_ROLE_ARTIFICIAL;
    default: return OTF2_REGION_ROLE_FUNCTION;
    }
}

static int otf2_failed(OTF2_ErrorCode rc, const char *what, const char *dir, char *err, size_t errlen)
{
    if (rc == OTF2_SUCCESS) return 0;
    ps_seterr(err, errlen, "%s: OTF2 %s failed: %s", dir, what, OTF2_Error_GetDescription(rc));
    return -1;
}

static uint64_t ticks(double t, double origin)
{
    double v = (t - origin) * 1e9;
    if (!(v > 0)) return 0;                  /* also NaN */
    if (v >= 9.2e18) return (uint64_t)9.2e18; /* absurd times: clamp, never overflow */
    return (uint64_t)llround(v);
}

/* Region of (construct, kind), or of a section name: defined on first use. */
typedef struct regions {
    uint32_t *id;   /* [(nconstructs) * 2 * PS_EV__COUNT], 0 = undefined, else id+1 */
    size_t   *key;  /* key[id] = index into id[] (definitions are written in id order) */
    uint32_t  next;
    int       nc;
} regions;

static uint32_t region_of(regions *rg, const ps_trace *t, const ps_event *e)
{
    int section = e->kind == PS_EV_SECTION;
    unsigned c = section ? e->aux : e->construct;
    if ((int)c >= rg->nc) c = 0;
    size_t k = ((size_t)c * 2 + (size_t)section) * PS_EV__COUNT + (e->kind < PS_EV__COUNT ? e->kind : 0);
    (void)t;
    if (!rg->id[k]) {
        rg->key[rg->next] = k;
        rg->id[k] = ++rg->next;
    }
    return rg->id[k] - 1;
}

static int write_archive(const ps_trace *t, const char *dir, char *err, size_t errlen)
{
    double origin = ps_export_origin(t);
    OTF2_Archive *ar = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024, 4 * 1024 * 1024,
                                         OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!ar) {
        ps_seterr(err, errlen, "%s: cannot create the OTF2 archive", dir);
        return -1;
    }
    int rc = -1;
    int nc = t->nconstructs > 0 ? t->nconstructs : 1;
    regions rg = {ps_xcalloc((size_t)nc * 2 * PS_EV__COUNT, sizeof(uint32_t)),
                  ps_xcalloc((size_t)nc * 2 * PS_EV__COUNT, sizeof(size_t)), 0, nc};
    uint64_t *nevents = ps_xcalloc((size_t)t->nranks, sizeof *nevents);
    rec *rv = NULL;
    size_t rcap = 0;
    uint64_t tmax = 0;

    if (otf2_failed(OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL), "flush setup", dir, err, errlen) ||
        otf2_failed(OTF2_Archive_SetSerialCollectiveCallbacks(ar), "collective setup", dir, err, errlen))
        goto out;
    OTF2_Archive_SetCreator(ar, "parscope");
    OTF2_Archive_SetDescription(ar, "parscope trace");
    if (otf2_failed(OTF2_Archive_OpenEvtFiles(ar), "opening event files", dir, err, errlen)) goto out;

    for (int r = 0; r < t->nranks; r++) {
        const ps_rank_trace *rt = &t->rank[r];
        OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(ar, (OTF2_LocationRef)r);
        if (!w) {
            ps_seterr(err, errlen, "%s: OTF2 event writer for rank %d", dir, r);
            goto out;
        }
        if (rcap < 2 * rt->n) {
            rcap = 2 * rt->n;
            rv = ps_xrealloc(rv, rcap * sizeof *rv);
        }
        size_t nr = 0;
        for (size_t i = 0; i < rt->n; i++) {
            const ps_event *e = &rt->ev[i];
            uint64_t a = ticks(e->t0, origin), b = ticks(e->t1, origin);
            if (b < a) b = a;
            if (a == b) {
                rv[nr++] = (rec){a, 0, (uint32_t)i, REC_POINT};
            } else {
                rv[nr++] = (rec){a, UINT64_MAX - (b - a), (uint32_t)i, REC_ENTER};
                rv[nr++] = (rec){b, UINT64_MAX - a, (uint32_t)i, REC_LEAVE};
            }
            if (b > tmax) tmax = b;
        }
        if (nr) qsort(rv, nr, sizeof *rv, rec_cmp);
        OTF2_ErrorCode ec = OTF2_SUCCESS;
        for (size_t k = 0; k < nr && ec == OTF2_SUCCESS; k++) {
            const ps_event *e = &rt->ev[rv[k].ev];
            uint32_t region = region_of(&rg, t, e);
            if (rv[k].type != REC_LEAVE) {
                ec = OTF2_EvtWriter_Enter(w, NULL, rv[k].ts, region);
                if (ec == OTF2_SUCCESS && e->kind == PS_EV_SEND) {
                    ec = OTF2_EvtWriter_MpiSend(w, NULL, rv[k].ts, (uint32_t)e->peer, 0, (uint32_t)e->tag, e->bytes);
                    nevents[r]++;
                }
                nevents[r]++;
            }
            if (ec == OTF2_SUCCESS && rv[k].type != REC_ENTER) {
                if (e->kind == PS_EV_RECV) {
                    ec = OTF2_EvtWriter_MpiRecv(w, NULL, rv[k].ts, (uint32_t)e->peer, 0, (uint32_t)e->tag, e->bytes);
                    nevents[r]++;
                }
                if (ec == OTF2_SUCCESS) ec = OTF2_EvtWriter_Leave(w, NULL, rv[k].ts, region);
                nevents[r]++;
            }
        }
        if (otf2_failed(ec, "writing events", dir, err, errlen)) goto out;
        if (otf2_failed(OTF2_Archive_CloseEvtWriter(ar, w), "closing an event writer", dir, err, errlen)) goto out;
    }
    if (otf2_failed(OTF2_Archive_CloseEvtFiles(ar), "closing event files", dir, err, errlen)) goto out;

    /* local definition files (empty: every id is global) */
    if (otf2_failed(OTF2_Archive_OpenDefFiles(ar), "opening definition files", dir, err, errlen)) goto out;
    for (int r = 0; r < t->nranks; r++) {
        OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, (OTF2_LocationRef)r);
        if (!dw || otf2_failed(OTF2_Archive_CloseDefWriter(ar, dw), "closing a definition writer", dir, err, errlen)) {
            if (!dw) ps_seterr(err, errlen, "%s: OTF2 definition writer for rank %d", dir, r);
            goto out;
        }
    }
    if (otf2_failed(OTF2_Archive_CloseDefFiles(ar), "closing definition files", dir, err, errlen)) goto out;

    /* global definitions */
    OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(ar);
    if (!g) {
        ps_seterr(err, errlen, "%s: OTF2 global definition writer", dir);
        goto out;
    }
    OTF2_ErrorCode ec = OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000u, 0, tmax + 1, OTF2_UNDEFINED_TIMESTAMP);
    uint32_t s = 0; /* string ids */
#define STR(text) (ec == OTF2_SUCCESS ? (ec = OTF2_GlobalDefWriter_WriteString(g, s, (text)), s++) : s)
    uint32_t s_empty = STR("");
    for (uint32_t id = 1; id <= rg.next && ec == OTF2_SUCCESS; id++) {
        size_t key = rg.key[id - 1];
        int k = (int)(key % PS_EV__COUNT), sec = (int)(key / PS_EV__COUNT % 2), c = (int)(key / PS_EV__COUNT / 2);
        const char *cn = c < t->nconstructs && t->constructs[c] ? t->constructs[c] : "UNKNOWN";
        char name[256];
        if (sec) snprintf(name, sizeof name, "%s", cn);
        else snprintf(name, sizeof name, "%s %s", cn, act_word(k));
        uint32_t sn = STR(name);
        int mpi = k == PS_EV_SEND || k == PS_EV_RECV || k == PS_EV_POST || k == PS_EV_WAIT || k == PS_EV_BARRIER;
        if (ec == OTF2_SUCCESS)
            ec = OTF2_GlobalDefWriter_WriteRegion(g, id - 1, sn, sn, s_empty, region_role(k),
                                                  mpi ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                                  OTF2_REGION_FLAG_NONE, s_empty, 0, 0);
    }
    uint32_t s_machine = STR("machine"), s_node = STR("node");
    if (ec == OTF2_SUCCESS) ec = OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s_machine, s_node, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    uint64_t *members = ps_xmalloc(((size_t)t->nranks + 1) * sizeof *members);
    for (int r = 0; r < t->nranks && ec == OTF2_SUCCESS; r++) {
        char name[64];
        snprintf(name, sizeof name, "rank %d", r);
        uint32_t sn = STR(name);
        if (ec == OTF2_SUCCESS)
            ec = OTF2_GlobalDefWriter_WriteLocationGroup(g, (OTF2_LocationGroupRef)r, sn, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                         0, OTF2_UNDEFINED_LOCATION_GROUP);
        snprintf(name, sizeof name, "rank %d thread 0", r);
        uint32_t st = STR(name);
        if (ec == OTF2_SUCCESS)
            ec = OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)r, st, OTF2_LOCATION_TYPE_CPU_THREAD, nevents[r],
                                                    (OTF2_LocationGroupRef)r);
        members[r] = (uint64_t)r;
    }
    uint32_t s_locs = STR("MPI processes"), s_world = STR("MPI_COMM_WORLD");
    if (ec == OTF2_SUCCESS)
        ec = OTF2_GlobalDefWriter_WriteGroup(g, 0, s_locs, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, (uint32_t)t->nranks, members);
    if (ec == OTF2_SUCCESS)
        ec = OTF2_GlobalDefWriter_WriteGroup(g, 1, s_world, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                             OTF2_GROUP_FLAG_NONE, (uint32_t)t->nranks, members);
    if (ec == OTF2_SUCCESS) ec = OTF2_GlobalDefWriter_WriteComm(g, 0, s_world, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
#undef STR
    free(members);
    if (otf2_failed(ec, "writing definitions", dir, err, errlen)) goto out;
    rc = 0;
out:
    {
        OTF2_ErrorCode cec = OTF2_Archive_Close(ar);
        if (rc == 0 && otf2_failed(cec, "closing the archive", dir, err, errlen)) rc = -1;
    }
    free(rg.id);
    free(rg.key);
    free(nevents);
    free(rv);
    return rc;
}

/* Is dir an OTF2 archive parscope may replace? */
static int is_otf2_archive(const char *dir)
{
    char *anchor = ps_xasprintf("%s/traces.otf2", dir);
    int yes = ps_file_exists(anchor);
    free(anchor);
    return yes;
}

int ps_export_otf2(const ps_trace *t, const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode) || !is_otf2_archive(dir)) {
            ps_seterr(err, errlen, "%s: exists and is not an OTF2 archive (refusing to overwrite it)", dir);
            return -1;
        }
    }
    /* write beside the target, then swap it in: nothing half-written */
    char *tmp = ps_xasprintf("%s.tmpXXXXXX", dir);
    if (!mkdtemp(tmp)) {
        ps_seterr(err, errlen, "%s: cannot create a directory beside it: %s", dir, strerror(errno));
        free(tmp);
        return -1;
    }
    rmdir(tmp); /* OTF2 creates the archive directory itself */
    int rc = write_archive(t, tmp, err, errlen);
    if (rc == 0) {
        char *old = NULL;
        if (ps_is_dir(dir)) {
            old = ps_xasprintf("%s.oldXXXXXX", dir);
            if (!mkdtemp(old) || rmdir(old) != 0 || rename(dir, old) != 0) {
                ps_seterr(err, errlen, "%s: cannot move the old archive aside: %s", dir, strerror(errno));
                rc = -1;
            }
        }
        if (rc == 0 && rename(tmp, dir) != 0) {
            ps_seterr(err, errlen, "%s: cannot rename into place: %s", dir, strerror(errno));
            rc = -1;
            if (old) rename(old, dir);
        } else if (old) {
            ps_rmtree(old);
        }
        free(old);
    }
    if (rc != 0) ps_rmtree(tmp);
    free(tmp);
    return rc;
}
