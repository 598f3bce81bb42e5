/* SPDX-License-Identifier: MIT */
/*
 * pd-convert --to=json: the decoded fields of the records and feature
 * sections export-json.c does not decode itself, written as JSON members
 * (",\"key\":value") into the line being written. The bytes stay in the
 * line's "raw"; these only name what they hold (docs/json-schema.md).
 */
#ifndef PD_TOOLS_JSON_DECODE_H
#define PD_TOOLS_JSON_DECODE_H

#include <stdbool.h>
#include <stdio.h>

#include <perfdata/event.h>
#include <perfdata/features.h>

/* The fields of ev's type; false when this file does not decode it. */
bool json_decode_record(FILE *f, const struct pd_event *ev);

/*
 * ",\"decoded\":{...}" for feature id when the library decoded it
 * (pd_features__has), nothing otherwise.
 */
void json_decode_feature(FILE *f, const struct pd_features *ft,
			 unsigned int id);

#endif /* PD_TOOLS_JSON_DECODE_H */
