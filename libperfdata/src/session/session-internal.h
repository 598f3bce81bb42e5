/* SPDX-License-Identifier: MIT */
/*
 * What the layers below the session (the unwinder) need of its state:
 * a thread's address space and the DSO of one of its maps. Not installed.
 */
#ifndef PD_SESSION_INTERNAL_H
#define PD_SESSION_INTERNAL_H

#include <perfdata/session.h>

#include "session-maps.h"

/* The maps the thread sees (its process's); never NULL. */
struct pd_maps *pd__thread_maps(const struct pd_thread *t);

/* The DSO of a user-space map, loaded on first use; NULL without one. */
struct pd_dso *pd__session_map_dso(struct pd_session *s, struct pd_map *map);

/* The session's one copy of str (lives as long as s); NULL on ENOMEM. */
const char *pd__session_intern(struct pd_session *s, const char *str);

/* The symbolizer the session was made with. */
struct pd_symbolizer *pd__session_symbolizer(const struct pd_session *s);

#endif /* PD_SESSION_INTERNAL_H */
