// SPDX-License-Identifier: MIT
/*
 * libtraceevent behind trace-tep.h: the calls as each version offers them,
 * or none without the library.
 *
 * tep_parse_saved_cmdlines() and tep_parse_printk_formats() came after
 * libtraceevent 1.1 (Debian 11 has 1.1.2 without them; config.mk probes
 * for each). Where one is missing, its lines are registered one by one
 * with the calls 1.1 has, tep_register_comm() and
 * tep_register_print_string(), reading each line as the newer call
 * does, so that a handle holds the same comms and strings either way:
 * "PID COMM" with the comm the rest of the line; "ADDR : FMT" with ADDR
 * hexadecimal and FMT after the ": " (tep_register_print_string() strips
 * its quotes itself).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBTRACEEVENT
#include <traceevent/event-parse.h>
#endif

#include "trace-tep.h"

#ifdef HAVE_LIBTRACEEVENT

static bool host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

struct tep_handle *pd__tep_new(const struct pd_tracing *t)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, t->big_endian ? TEP_BIG_ENDIAN :
						    TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big_endian() ? TEP_BIG_ENDIAN :
							 TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, t->long_size);
	tep_set_page_size(tep, (int)t->page_size);
	return tep;
}

void pd__tep_free(struct tep_handle *tep)
{
	if (tep)
		tep_free(tep);
}

void pd__tep_parse_header_page(struct tep_handle *tep, char *text, size_t len,
			       int long_size)
{
	tep_parse_header_page(tep, text, len, long_size);
}

void pd__tep_parse_event(struct tep_handle *tep, const char *text, size_t len,
			 const char *sys)
{
	tep_parse_event(tep, text, len, sys);
}

bool pd__tep_parse_format(struct tep_handle *tep, const char *text,
			  size_t len, const char *sys, uint64_t *id,
			  const char **name)
{
	struct tep_event *te = NULL;

	tep_parse_format(tep, &te, text, len, sys);
	if (!te || !te->name)
		return false;
	*id = (uint64_t)te->id;
	*name = te->name;
	return true;
}

#if !defined(HAVE_TEP_PARSE_PRINTK_FORMATS) || \
	!defined(HAVE_TEP_PARSE_SAVED_CMDLINES)
/* Each line of text, without its newline, as a C string. */
static void each_line(const char *text, void (*fn)(void *, char *),
		      void *ctx)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchrnul(p, '\n');
		char *line;

		if (nl > p) {
			line = strndup(p, nl - p);
			if (!line)
				return;
			fn(ctx, line);
			free(line);
		}
		p = *nl ? nl + 1 : nl;
	}
}
#endif

#ifndef HAVE_TEP_PARSE_PRINTK_FORMATS
static void register_printk(void *tep, char *line)
{
	char *colon = strchr(line, ':');

	if (colon && colon[1])
		tep_register_print_string(tep, colon + 2,
					  strtoull(line, NULL, 16));
}
#endif

void pd__tep_parse_printk_formats(struct tep_handle *tep, const char *text)
{
#ifdef HAVE_TEP_PARSE_PRINTK_FORMATS
	tep_parse_printk_formats(tep, text);
#else
	each_line(text, register_printk, tep);
#endif
}

#ifndef HAVE_TEP_PARSE_SAVED_CMDLINES
static void register_comm(void *tep, char *line)
{
	char *end, *comm;
	long pid = strtol(line, &end, 10);

	if (end == line || pid < INT32_MIN || pid > INT32_MAX)
		return;
	for (comm = end; *comm == ' ' || *comm == '\t'; comm++)
		;
	if (comm > end && *comm)
		tep_register_comm(tep, comm, (int)pid);
}
#endif

void pd__tep_parse_saved_cmdlines(struct tep_handle *tep, const char *text)
{
#ifdef HAVE_TEP_PARSE_SAVED_CMDLINES
	tep_parse_saved_cmdlines(tep, text);
#else
	each_line(text, register_comm, tep);
#endif
}

#else /* !HAVE_LIBTRACEEVENT: no handle, so none of these is reached */

struct tep_handle *pd__tep_new(const struct pd_tracing *t)
{
	return NULL;
}

void pd__tep_free(struct tep_handle *tep)
{
}

void pd__tep_parse_header_page(struct tep_handle *tep, char *text, size_t len,
			       int long_size)
{
}

void pd__tep_parse_event(struct tep_handle *tep, const char *text, size_t len,
			 const char *sys)
{
}

bool pd__tep_parse_format(struct tep_handle *tep, const char *text,
			  size_t len, const char *sys, uint64_t *id,
			  const char **name)
{
	return false;
}

void pd__tep_parse_printk_formats(struct tep_handle *tep, const char *text)
{
}

void pd__tep_parse_saved_cmdlines(struct tep_handle *tep, const char *text)
{
}

#endif /* HAVE_LIBTRACEEVENT */
