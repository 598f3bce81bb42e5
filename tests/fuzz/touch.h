/* SPDX-License-Identifier: MIT */
/*
 * Reading every byte a decoded record points to, so that a sanitizer sees
 * a pointer or a count the decoder got wrong.
 */
#ifndef PD_FUZZ_TOUCH_H
#define PD_FUZZ_TOUCH_H

#include <perfdata/event.h>
#include <perfdata/features.h>
#include <perfdata/reader.h>
#include <perfdata/session.h>

void touch_event(const struct pd_event *ev);
void touch_features(const struct pd_features *f);
void touch_evsels(const struct pd_reader *r);
void touch_frame(const struct pd_frame *fr);

#endif /* PD_FUZZ_TOUCH_H */
