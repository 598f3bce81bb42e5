// SPDX-License-Identifier: MIT
/*
 * The tools' hash table (common/htab.h) and the interned keys on top of
 * it (common/intern.h): every key found again with its payload after
 * the table has grown many times, entries that never move, keys that
 * differ only past a prefix or in NUL bytes, iteration that visits each
 * entry once, aligned payloads and keys, and an out-of-memory failure
 * that leaves the table as it was.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/htab.h"
#include "common/intern.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN true
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN true
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN false
#endif

#define NR_KEYS	100000

struct payload {
	uint64_t number;
	uint32_t len;		/* the key's, to tell a mixed-up payload */
};

/*
 * Key i: its number's four bytes (NULs among them for most numbers)
 * then up to 40 bytes of 'k', so many keys share long prefixes.
 */
static size_t make_key(unsigned char *buf, uint32_t i)
{
	size_t len = 4 + i % 41;

	memcpy(buf, &i, 4);
	memset(buf + 4, 'k', len - 4);
	return len;
}

static void test_growth(void)
{
	struct htab_entry **entries = calloc(NR_KEYS, sizeof(*entries));
	bool all_new = true, all_found = true, same_entry = true;
	bool payload_kept = true, key_copied = true;
	unsigned char key[64];
	struct htab t;
	uint32_t i;

	/* 4 slots at first: the table grows 16 times */
	if (!entries || htab__init(&t, sizeof(struct payload), 4, 50)) {
		CHECK(0, "htab__init and the entries' array");
		free(entries);
		return;
	}
	for (i = 0; i < NR_KEYS; i++) {
		size_t len = make_key(key, i);
		struct payload *p;
		bool added;

		entries[i] = htab__get(&t, key, len, &added);
		if (!entries[i])
			break;
		p = htab_entry__payload(entries[i]);
		all_new &= added && !p->number && !p->len;
		p->number = i;
		p->len = (uint32_t)len;
		/* the table keeps a copy: the caller's buffer changes */
		memset(key, 0xff, sizeof(key));
	}
	CHECK(i == NR_KEYS && all_new && t.nr == NR_KEYS,
	      "%d distinct keys added, each new with a zeroed payload",
	      NR_KEYS);
	/* 131072 slots hold 65536 entries at most */
	CHECK(t.nr_slots == 262144,
	      "half full at most: grown from 4 slots to 262144, no further");
	for (i = 0; i < NR_KEYS && entries[i]; i++) {
		size_t len = make_key(key, i);
		struct htab_entry *e;
		struct payload *p;
		bool added;

		e = htab__get(&t, key, len, &added);
		if (!e || added) {
			all_found = false;
			continue;
		}
		p = htab_entry__payload(e);
		same_entry &= e == entries[i];
		payload_kept &= p->number == i && p->len == len;
		key_copied &= e->len == len && !memcmp(e->key, key, len);
	}
	CHECK(all_found && t.nr == NR_KEYS,
	      "every key found again after growing, none added twice");
	CHECK(same_entry, "an entry stays where it was added as the table grows");
	CHECK(payload_kept, "each payload kept what was written to it");
	CHECK(key_copied, "each entry holds a copy of its key");
	htab__release(&t);
	free(entries);
}

/* Keys that are prefixes of one another or differ in NULs only. */
static void test_close_keys(void)
{
	static const struct {
		const char *p;
		size_t len;
	} keys[] = {
		{ "", 0 }, { "a", 1 }, { "a\0", 2 }, { "a\0\0", 3 },
		{ "a\0b", 3 }, { "a\0c", 3 }, { "ab", 2 }, { "\0", 1 },
		{ "\0\0", 2 }, { "main;run;idle", 13 }, { "main;run;idle;", 14 },
		{ "main;run", 8 },
	};
	size_t nr = sizeof(keys) / sizeof(keys[0]), i, distinct = 0;
	bool found = true;
	struct htab t;

	if (htab__init(&t, sizeof(size_t), 16, 75)) {
		CHECK(0, "htab__init");
		return;
	}
	for (i = 0; i < nr; i++) {
		bool added;
		struct htab_entry *e = htab__get(&t, keys[i].p, keys[i].len,
						 &added);

		if (e && added) {
			*(size_t *)htab_entry__payload(e) = i;
			distinct++;
		}
	}
	CHECK(distinct == nr && t.nr == nr,
	      "%zu keys equal but for a suffix or a NUL byte: as many entries",
	      nr);
	for (i = 0; i < nr; i++) {
		struct htab_entry *e = htab__get(&t, keys[i].p, keys[i].len,
						 NULL);

		found &= e && *(size_t *)htab_entry__payload(e) == i &&
			 e->len == keys[i].len;
	}
	CHECK(found && t.nr == nr, "each found again as itself");
	htab__release(&t);
}

static void test_iteration(void)
{
	size_t visits = 0, twice = 0, pos, i;
	unsigned char key[64];
	struct htab_entry *e;
	struct htab t;

	if (htab__init(&t, sizeof(uint32_t), 8, 75)) {
		CHECK(0, "htab__init");
		return;
	}
	pos = 0;
	CHECK(!htab__next(&t, &pos), "an empty table: no entries");
	for (i = 0; i < 5000; i++)
		htab__get(&t, key, make_key(key, (uint32_t)i), NULL);
	/* a key already there adds nothing to walk */
	htab__get(&t, key, make_key(key, 7), NULL);
	pos = 0;
	while ((e = htab__next(&t, &pos))) {
		uint32_t *seen = htab_entry__payload(e);

		twice += *seen;
		*seen = 1;
		visits++;
	}
	CHECK(visits == 5000 && visits == t.nr && !twice,
	      "iteration visits each of 5000 entries once");
	/* 4096 slots hold 3072 entries at most */
	CHECK(t.nr_slots == 8192,
	      "3/4 full at most: grown from 8 slots to 8192, no further");
	CHECK(!htab__next(&t, &pos), "and stays at its end");
	htab__release(&t);
}

static void test_alignment(void)
{
	static const size_t sizes[] = { 0, 1, 4, 8, 12, 24, 100 };
	bool aligned = true;
	size_t s, i;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned char key[64];
		struct htab t;

		if (htab__init(&t, sizes[s], 4, 50)) {
			aligned = false;
			continue;
		}
		for (i = 0; i < 50; i++) {
			struct htab_entry *e;

			e = htab__get(&t, key, make_key(key, (uint32_t)i), NULL);
			aligned &= e && !((uintptr_t)htab_entry__payload(e) % 16) &&
				   !((uintptr_t)e->key % 8) &&
				   (const unsigned char *)e->key >=
				   (unsigned char *)htab_entry__payload(e) + sizes[s];
		}
		htab__release(&t);
	}
	CHECK(aligned,
	      "payloads 16-byte aligned, keys 8-byte aligned past them, for any payload size");
}

/* This process may map headroom bytes more than it has mapped now. */
static int limit_address_space(rlim_t headroom)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages;
	struct rlimit rl;
	int n;

	if (!f)
		return -1;
	n = fscanf(f, "%lu", &pages);
	fclose(f);
	if (n != 1 || getrlimit(RLIMIT_AS, &rl))
		return -1;
	rl.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + headroom;
	return setrlimit(RLIMIT_AS, &rl);
}

/*
 * The child, under an address-space limit, adds keys of key_len bytes
 * until an insertion fails, then checks that the table is as it was:
 * the keys added are found with their payloads (a look-up of a known
 * key allocates nothing) and the failed key is still not there. Exits
 * 2 when the failure was the slots' growth and 3 when it was the
 * entry's allocation, plus 8 if the table was damaged; 1 if the test
 * could not run.
 */
static int fill_until_oom(size_t key_len)
{
	unsigned char *key = malloc(key_len);
	bool growth_failed, damaged;
	struct htab_entry *e;
	struct htab t;
	uint64_t i, n;

	if (!key || htab__init(&t, sizeof(uint64_t), 4, 50) ||
	    limit_address_space(64u << 20))
		return 1;
	memset(key, 'k', key_len);
	for (n = 0;; n++) {
		memcpy(key, &n, sizeof(n));
		e = htab__get(&t, key, key_len, NULL);
		if (!e)
			break;
		*(uint64_t *)htab_entry__payload(e) = n;
	}
	/*
	 * The slots grow, when due, before the entry is allocated: still
	 * due, their growth failed (having grown, they are not due).
	 */
	growth_failed = n >= t.max_nr;
	damaged = t.nr != n;
	for (i = 0; i < n && !damaged; i++) {
		bool added;

		memcpy(key, &i, sizeof(i));
		e = htab__get(&t, key, key_len, &added);
		damaged = !e || added || *(uint64_t *)htab_entry__payload(e) != i;
	}
	memcpy(key, &n, sizeof(n));
	damaged |= htab__get(&t, key, key_len, NULL) || t.nr != n;
	htab__release(&t);
	free(key);
	return (growth_failed ? 2 : 3) + (damaged ? 8 : 0);
}

static int run_child(size_t key_len)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid)
		_exit(fill_until_oom(key_len));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static void test_out_of_memory(void)
{
	if (UNDER_ASAN) {
		/* ASan's shadow memory does not fit under an address-space limit */
		printf("ok %d # skip out of memory: not under ASan\n", ++tap_n);
		printf("ok %d # skip out of memory: not under ASan\n", ++tap_n);
		return;
	}
	/*
	 * Short keys: doubling the slots takes as much again as the table
	 * holds, the largest allocation by far, and fails first.
	 */
	CHECK(run_child(8) == 2,
	      "out of memory growing the slots: NULL, the table as it was");
	/*
	 * Keys of 6000 bytes: the 64 MiB run out at about 11000 keys, well
	 * between the slots' doublings at 8192 and 16384 keys.
	 */
	CHECK(run_child(6000) == 3,
	      "out of memory copying a key: NULL, the table as it was");
}

/* intern: numbers by first appearance over a zeroed struct intern */
static void test_intern(void)
{
	struct intern in;
	int64_t a, b, a2, e;
	int added_a, added_a2;
	bool by_number = true;
	uint64_t v;

	memset(&in, 0, sizeof(in));
	a = intern__add(&in, "a\0x", 3, &added_a);
	b = intern__str(&in, "a");
	e = intern__add(&in, "", 0, NULL);
	a2 = intern__add(&in, "a\0x", 3, &added_a2);
	CHECK(a == 0 && b == 1 && e == 2 && a2 == 0 && added_a && !added_a2 &&
	      in.nr == 3,
	      "intern: numbered in order of first appearance, a known key not added");
	for (v = 0; v < 3000; v++)
		by_number &= intern__add(&in, &v, sizeof(v), NULL) == (int64_t)v + 3;
	for (v = 0; v < 3000; v++) {
		const struct intern_key *k = intern__key(&in, v + 3);

		/* read in place as the exporters read their id keys */
		by_number &= k->len == sizeof(v) && *(const uint64_t *)k->p == v;
	}
	CHECK(by_number && in.nr == 3003,
	      "intern: 3000 more keys, each read back in place by its number");
	intern__free(&in);
}

int main(void)
{
	test_growth();
	test_close_keys();
	test_iteration();
	test_alignment();
	test_out_of_memory();
	test_intern();
	return tap_done();
}
