/*
 * noise.h - showing how busy the machine was (the "noise" object every
 * result carries, launch/noise.h) at the top of every text and report.
 */
#ifndef PS_REPORT_NOISE_H
#define PS_REPORT_NOISE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* The one-line summary ("machine noise: busy (...)"); "machine noise: not
 * measured" for a result without it. */
void ps_noise_line(const json_t *noise, char *buf, size_t len);

/* An HTML block: the summary, then before / during / after in a table. */
void ps_noise_html(FILE *out, const json_t *noise);

#endif
