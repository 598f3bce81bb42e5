// SPDX-License-Identifier: MIT
/*
 * Files by build id from debuginfod servers (perfdata/debuginfod.h),
 * through elfutils' libdebuginfod. The library is opened with dlopen()
 * when a file is first asked for, as libdw opens it: it pulls in libcurl
 * and some thirty libraries, which every start of every tool would
 * otherwise pay for (about 12 ms each here) although most runs never
 * fetch anything. The header is only for the prototypes, checked at
 * build time (config.mk's HAVE_DEBUGINFOD).
 *
 * What the servers answered is kept per process, under one lock, and so
 * is the client handle: pd-unwind's helper threads each have their own
 * symbolizer, and a build id is still asked once. Warnings are events
 * of the process too, each reported once by whichever client that may
 * speak sees them first (see pd__debuginfod_quiet()).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <perfdata/debuginfod.h>

#include "debuginfod-internal.h"
#include "base/internal.h"
#include "sym-internal.h"

struct pd_debuginfod {
	struct pd_logger log;
	bool quiet;		/* leaves warnings to another client */
};

/* Whether $DEBUGINFOD_URLS names a server: anything but blanks. */
static bool urls_set(void)
{
	const char *u = getenv("DEBUGINFOD_URLS");

	return u && u[strspn(u, " \t\n")];
}

void pd__debuginfod_quiet(struct pd_debuginfod *d)
{
	if (d)
		d->quiet = true;
}

#ifdef HAVE_DEBUGINFOD

#include <dlfcn.h>
#include <sys/mman.h>

#include <elfutils/debuginfod.h>

/* older headers do not name it */
#ifndef DEBUGINFOD_SONAME
#define DEBUGINFOD_SONAME "libdebuginfod.so.1"
#endif

#define BID_MAX 20
#define VLOG_MAX (64 * 1024)
#define MAX_SERVERS 32

/* What a server said in one query, from the client's verbose log. */
struct server_said {
	char *url;		/* the server, as in $DEBUGINFOD_URLS */
	char *error;		/* its transfer's error, or NULL */
	bool missing;		/* that error was a 404 */
};

struct answer {
	uint8_t bid[BID_MAX];
	size_t size;
	enum pd_debuginfod_kind kind;
	int err;		/* 0: path */
	char *path;
};

/* A warning of the process, reported once. */
struct event {
	char *key;		/* what makes it one: "fail URL", "404 URL" */
	char *msg;
	bool reported;
};

static struct {
	pthread_mutex_t lock;
	bool tried_load;
	char *load_error;	/* why libdebuginfod did not open */
	debuginfod_client *(*begin)(void);
	int (*find_executable)(debuginfod_client *, const unsigned char *,
			       int, char **);
	int (*find_debuginfo)(debuginfod_client *, const unsigned char *,
			      int, char **);
	/* later additions to the client: each optional */
	const char *(*get_url)(debuginfod_client *);
	void (*set_verbose_fd)(debuginfod_client *, int);
	debuginfod_client *client;
	int vlog;		/* memfd the client's verbose log goes to */
	bool stopped;		/* a failed server ended the queries */
	struct answer *answers;
	size_t nr_answers, cap_answers;
	struct event *events;
	size_t nr_events, cap_events;
} g = { .lock = PTHREAD_MUTEX_INITIALIZER, .vlog = -1 };

static void hex(const uint8_t *bid, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", bid[i]);
	out[2 * n] = '\0';
}

static const char *kind_name(enum pd_debuginfod_kind kind)
{
	return kind == PD_DEBUGINFOD_DEBUGINFO ? "debuginfo" : "executable";
}

/* A warning for the process, unless one with its key exists. */
static void add_event(const char *key, const char *fmt, ...) PD_PRINTF(2, 3);
static void add_event(const char *key, const char *fmt, ...)
{
	struct event *e;
	va_list ap;
	size_t i;

	for (i = 0; i < g.nr_events; i++)
		if (!strcmp(g.events[i].key, key))
			return;
	if (g.nr_events == g.cap_events) {
		size_t cap = g.cap_events ? 2 * g.cap_events : 8;

		e = realloc(g.events, cap * sizeof(*e));
		if (!e)
			return;
		g.events = e;
		g.cap_events = cap;
	}
	e = &g.events[g.nr_events];
	memset(e, 0, sizeof(*e));
	e->key = strdup(key);
	va_start(ap, fmt);
	if (vasprintf(&e->msg, fmt, ap) < 0)
		e->msg = NULL;
	va_end(ap);
	if (!e->key || !e->msg) {
		free(e->key);
		free(e->msg);
		return;
	}
	g.nr_events++;
}

/* The warnings no client has reported yet, by this one if it may. */
static void report_events(struct pd_debuginfod *d)
{
	size_t i;

	if (d->quiet)
		return;
	for (i = 0; i < g.nr_events; i++) {
		if (g.events[i].reported)
			continue;
		g.events[i].reported = true;
		pd__warn(&d->log, "%s", g.events[i].msg);
	}
}

static bool load_library(void)
{
	void *so;

	if (g.tried_load)
		return g.begin != NULL;
	g.tried_load = true;
	so = dlopen(DEBUGINFOD_SONAME, RTLD_LAZY | RTLD_LOCAL);
	if (!so) {
		const char *e = dlerror();

		g.load_error = strdup(e ? e : "dlopen failed");
		return false;
	}
	*(void **)&g.begin = dlsym(so, "debuginfod_begin");
	*(void **)&g.find_executable = dlsym(so, "debuginfod_find_executable");
	*(void **)&g.find_debuginfo = dlsym(so, "debuginfod_find_debuginfo");
	*(void **)&g.get_url = dlsym(so, "debuginfod_get_url");
	*(void **)&g.set_verbose_fd = dlsym(so, "debuginfod_set_verbose_fd");
	if (!g.begin || !g.find_executable || !g.find_debuginfo) {
		g.begin = NULL;
		g.load_error = strdup("it lacks debuginfod_begin() or a find call");
		return false;
	}
	/* the library stays loaded: its client lives as long as the process */
	return true;
}

/*
 * The client, created once. Its verbose log goes to a memory file we
 * read after each query, to tell which server said what; unless the
 * user asked for that log ($DEBUGINFOD_VERBOSE), which then goes where
 * the client's documentation says (standard error).
 */
static debuginfod_client *client(void)
{
	if (g.client)
		return g.client;
	g.client = g.begin();
	if (!g.client)
		return NULL;
	if (g.set_verbose_fd && !getenv("DEBUGINFOD_VERBOSE")) {
		g.vlog = memfd_create("debuginfod-log", MFD_CLOEXEC);
		if (g.vlog >= 0)
			g.set_verbose_fd(g.client, g.vlog);
	}
	return g.client;
}

/* The verbose log of the last query, emptied for the next one. */
static char *take_log(void)
{
	char *buf;
	ssize_t n;
	off_t end;

	if (g.vlog < 0)
		return NULL;
	end = lseek(g.vlog, 0, SEEK_CUR);
	if (end <= 0)
		return NULL;
	if (end > VLOG_MAX)
		end = VLOG_MAX;
	buf = malloc((size_t)end + 1);
	if (buf) {
		n = pread(g.vlog, buf, (size_t)end, 0);
		buf[n > 0 ? n : 0] = '\0';
	}
	if (ftruncate(g.vlog, 0) == 0)
		lseek(g.vlog, 0, SEEK_SET);
	return buf;
}

/*
 * The servers' answers in the client's verbose log (elfutils 0.180 and
 * later): "init server N URL/buildid" names server N, a first "url N
 * ..." line its query URL, a later one the error of its transfer
 * (libcurl's text: "The requested URL returned error: 404", "Failed to
 * connect to ...", "Operation too slow ..."); a retried query
 * ($DEBUGINFOD_RETRY_LIMIT) logs each try so. The server that answered
 * first is taken and the others' transfers dropped unlogged. Returns
 * how many servers are listed.
 */
static size_t parse_log(char *log, struct server_said *out, size_t max)
{
	bool seen_url[MAX_SERVERS] = { false };
	char *line, *save = NULL;
	size_t nr = 0, i;

	if (max > MAX_SERVERS)
		max = MAX_SERVERS;
	for (i = 0; i < max; i++)
		out[i] = (struct server_said){ NULL, NULL, false };
	for (line = log ? strtok_r(log, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int n;
		int pos = 0;

		if (sscanf(line, "init server %u %n", &n, &pos) == 1 && pos &&
		    n < max) {
			char *url = line + pos;
			size_t len = strlen(url);

			if (len > 8 && !strcmp(url + len - 8, "/buildid"))
				url[len - 8] = '\0';
			/* each try of a retried query starts so: its
			 * answer is the last try's */
			free(out[n].url);
			free(out[n].error);
			out[n] = (struct server_said){ strdup(url), NULL, false };
			seen_url[n] = false;
			if (n >= nr)
				nr = n + 1;
		} else if (sscanf(line, "url %u %n", &n, &pos) == 1 && pos &&
			   n < max) {
			if (!seen_url[n]) {
				seen_url[n] = true;
				continue;
			}
			free(out[n].error);
			out[n].error = strdup(line + pos);
			out[n].missing = strstr(line + pos, "error: 404") != NULL;
		}
	}
	return nr;
}

static void free_said(struct server_said *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].url);
		free(s[i].error);
	}
}

/*
 * Whether a query that found nothing ends the queries of the process: a
 * server failed (not a 404) and either no server answered at all, or
 * the failure took time (a timeout: each further query would wait as
 * long). A refused connection beside a server that answers costs
 * nothing, and that server goes on being asked.
 */
static bool ends_queries(int err, bool failed, bool answered, double secs)
{
	if (!err)
		return false;
	if (err != -ENOENT && !answered)
		return true;
	return failed && (!answered || secs >= 1.0);
}

/*
 * The warnings a query leaves: servers that failed (each once), servers
 * that had no such file (each once, with the first file), or, where the
 * log names no server, $DEBUGINFOD_URLS whole. Returns whether no server
 * is to be asked again (ends_queries()).
 */
static bool note_query(int err, double secs, const char *bid_hex,
		       const char *what, enum pd_debuginfod_kind kind,
		       struct server_said *said, size_t nr)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	const char *after;
	char key[4096];
	bool failed = false, answered = false, stop;
	size_t i;

	if (!urls)
		urls = "";
	for (i = 0; i < nr; i++) {
		if (said[i].error && !said[i].missing)
			failed = true;
		else if (said[i].error)
			answered = true;
	}
	stop = ends_queries(err, failed || (err && err != -ENOENT && !nr),
			    answered || (err == -ENOENT && !failed), secs);
	after = stop ? "no server is asked again in this run" :
		"not reported again";
	for (i = 0; i < nr; i++) {
		const char *url = said[i].url ? said[i].url : "?";

		if (!said[i].error)
			continue;
		if (said[i].missing) {
			snprintf(key, sizeof(key), "404 %s", url);
			add_event(key,
				  "server %s has no %s for build id %s (%s): its frames stay unresolved (other files it lacks are not reported)",
				  url, kind_name(kind), bid_hex, what);
			continue;
		}
		snprintf(key, sizeof(key), "fail %s", url);
		add_event(key, "server %s: %s: %s", url, said[i].error, after);
	}
	if (!err || failed || answered)
		return stop;
	/* the log named no server: they answered as a whole */
	if (err == -ENOENT) {
		snprintf(key, sizeof(key), "404 %s", urls);
		add_event(key,
			  "no server of DEBUGINFOD_URLS (%s) has the %s for build id %s (%s): its frames stay unresolved (other misses are not reported)",
			  urls, kind_name(kind), bid_hex, what);
		return stop;
	}
	snprintf(key, sizeof(key), "fail %s", urls);
	add_event(key, "servers of DEBUGINFOD_URLS (%s): %s: %s", urls,
		  strerror(-err), after);
	return stop;
}

static struct answer *find_answer(const uint8_t *bid, size_t size,
				  enum pd_debuginfod_kind kind)
{
	size_t i;

	for (i = 0; i < g.nr_answers; i++) {
		struct answer *a = &g.answers[i];

		if (a->kind == kind && a->size == size && !memcmp(a->bid, bid, size))
			return a;
	}
	return NULL;
}

static void keep_answer(const uint8_t *bid, size_t size,
			enum pd_debuginfod_kind kind, int err, const char *path)
{
	struct answer *a;

	if (g.nr_answers == g.cap_answers) {
		size_t cap = g.cap_answers ? 2 * g.cap_answers : 32;

		a = realloc(g.answers, cap * sizeof(*a));
		if (!a)
			return;
		g.answers = a;
		g.cap_answers = cap;
	}
	a = &g.answers[g.nr_answers];
	memset(a, 0, sizeof(*a));
	memcpy(a->bid, bid, size);
	a->size = size;
	a->kind = kind;
	a->err = err;
	if (!err) {
		a->path = strdup(path);
		if (!a->path)
			return;
	}
	g.nr_answers++;
}

/* One query to the servers, the lock held. */
static int query(struct pd_debuginfod *d, const uint8_t *bid, size_t size,
		 enum pd_debuginfod_kind kind, const char *what, char **path)
{
	struct server_said said[MAX_SERVERS];
	char bid_hex[2 * BID_MAX + 1], *log, *got = NULL;
	struct timespec t0, t1;
	debuginfod_client *c;
	size_t nr;
	int fd, err = 0;

	if (!load_library()) {
		add_event("load",
			  "DEBUGINFOD_URLS is set, but %s cannot be loaded (%s): nothing is fetched (Debian: apt-get install libdebuginfod1)",
			  DEBUGINFOD_SONAME, g.load_error ? g.load_error : "");
		g.stopped = true;
		return -ENOSYS;
	}
	c = client();
	if (!c)
		return -ENOMEM;
	hex(bid, size, bid_hex);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = kind == PD_DEBUGINFOD_DEBUGINFO ?
	     g.find_debuginfo(c, bid, (int)size, &got) :
	     g.find_executable(c, bid, (int)size, &got);
	if (fd >= 0) {
		const char *url = g.get_url ? g.get_url(c) : NULL;

		close(fd);
		if (!got)
			err = -ENOMEM;
		else if (url)
			pd__info(&d->log, "%s (build id %s): %s fetched from %s into %s",
				 what, bid_hex, kind_name(kind), url, got);
		else
			pd__info(&d->log, "%s (build id %s): %s from the debuginfod client's cache: %s",
				 what, bid_hex, kind_name(kind), got);
	} else {
		err = fd;
		pd__debug(&d->log, "%s (build id %s): no %s: %s", what, bid_hex,
			  kind_name(kind), strerror(-err));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	log = take_log();
	nr = parse_log(log, said, MAX_SERVERS);
	free(log);
	if (note_query(err, (double)(t1.tv_sec - t0.tv_sec) +
		       (t1.tv_nsec - t0.tv_nsec) / 1e9, bid_hex, what, kind,
		       said, nr))
		g.stopped = true;
	free_said(said, nr);
	if (err == -ENOMEM)
		return err;
	keep_answer(bid, size, kind, err, got);
	*path = got;
	return err;
}

PD_EXPORT struct pd_debuginfod *
pd_debuginfod__new(const struct pd_debuginfod_opts *opts)
{
	struct pd_debuginfod_opts o = { .sz = sizeof(o) };
	struct pd_debuginfod *d;

	if (!urls_set()) {
		errno = ENOENT;
		return NULL;
	}
	if (opts)
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->log.fn = o.log;
	d->log.ctx = o.log_ctx;
	d->log.name = "debuginfod";
	return d;
}

PD_EXPORT int pd_debuginfod__find(struct pd_debuginfod *d,
				  const uint8_t *build_id, size_t build_id_size,
				  enum pd_debuginfod_kind kind, const char *what,
				  char **path)
{
	const struct answer *a;
	int err;

	*path = NULL;
	if (!d || !build_id || !build_id_size)
		return -EINVAL;
	if (build_id_size > BID_MAX)
		build_id_size = BID_MAX;
	if (!what)
		what = "?";
	pthread_mutex_lock(&g.lock);
	a = find_answer(build_id, build_id_size, kind);
	if (a) {
		err = a->err;
		if (!err && !(*path = strdup(a->path)))
			err = -ENOMEM;
	} else if (g.stopped) {
		err = -ENOENT;
	} else {
		err = query(d, build_id, build_id_size, kind, what, path);
	}
	report_events(d);
	pthread_mutex_unlock(&g.lock);
	return err;
}

PD_EXPORT void pd_debuginfod__free(struct pd_debuginfod *d)
{
	if (!d)
		return;
	/* what a quiet client saw, if nobody said it since */
	pthread_mutex_lock(&g.lock);
	report_events(d);
	pthread_mutex_unlock(&g.lock);
	free(d);
}

#else /* !HAVE_DEBUGINFOD */

PD_EXPORT struct pd_debuginfod *
pd_debuginfod__new(const struct pd_debuginfod_opts *opts)
{
	errno = urls_set() ? ENOSYS : ENOENT;
	return NULL;
}

PD_EXPORT int pd_debuginfod__find(struct pd_debuginfod *d,
				  const uint8_t *build_id, size_t build_id_size,
				  enum pd_debuginfod_kind kind, const char *what,
				  char **path)
{
	*path = NULL;
	return -ENOSYS;
}

PD_EXPORT void pd_debuginfod__free(struct pd_debuginfod *d)
{
	free(d);
}

#endif /* HAVE_DEBUGINFOD */

bool pd__debuginfod_complete(const char *path)
{
	bool ret = false;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		ret = sym_elf__has_section(elf, ".symtab", SHT_SYMTAB) &&
		      sym_elf__has_section(elf, ".debug_info", 0);
	elf_end(elf);
	close(fd);
	return ret;
}

PD_EXPORT int pd_debuginfod__find_dso(struct pd_debuginfod *d,
				      const uint8_t *build_id,
				      size_t build_id_size, const char *what,
				      char **elf, char **debug)
{
	int err, err2;

	*debug = NULL;
	err = pd_debuginfod__find(d, build_id, build_id_size,
				  PD_DEBUGINFOD_EXECUTABLE, what, elf);
	if (err == -ENOMEM || (!err && pd__debuginfod_complete(*elf)))
		return err;
	err2 = pd_debuginfod__find(d, build_id, build_id_size,
				   PD_DEBUGINFOD_DEBUGINFO, what, debug);
	if (err2 == -ENOMEM) {
		free(*elf);
		*elf = NULL;
		return err2;
	}
	return !err || !err2 ? 0 : err;
}
