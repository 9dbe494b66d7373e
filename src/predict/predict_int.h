/* predict_int.h - what predict.c and record.c share (see predict.h). */
#ifndef PS_PREDICT_INT_H
#define PS_PREDICT_INT_H

#include "predict/predict.h"

/* Seconds per flop of each construct, measured in a 1-rank run (--calibrate). */
typedef struct ps__calibration {
    int     n;
    char  **names;
    double *sec_per_flop;
    double  time, factor;
} ps__calibration;

/* Runs the workload in the recording back end at P ranks, its streams into
 * dir.  0, 1 it failed (err), 2 bad input (err). */
int ps__predict_record(const ps_predict_opts *o, int P, const char *dir, char *err, size_t errlen);

/* The 1-rank run and the rates (printed to out unless quiet).  0, 1, 2 as above. */
int     ps__predict_calibrate(const ps_predict_opts *o, ps__calibration *c, FILE *out, char *err, size_t errlen);
json_t *ps__predict_calibration_json(const ps__calibration *c);
void    ps__predict_calibration_free(ps__calibration *c);

#endif
