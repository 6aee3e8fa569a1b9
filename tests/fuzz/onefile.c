/*
 * onefile.c - run a libFuzzer target without libFuzzer: every argument is
 * a file, or a directory whose regular files are run in name order, fed to
 * LLVMFuzzerTestOneInput once each.  Built with the ordinary compiler in the
 * normal build so every committed seed and regression input replays in
 * plain CI.  A broken invariant aborts (non-zero exit); otherwise prints
 * "onefile: N passed, 0 failed" and exits 0.  No input at all is a failure
 * (a seed directory that went missing must not pass silently).
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fz.h"

static unsigned long nrun;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;
	if (!f) {
		perror(path);
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		fprintf(stderr, "%s: cannot size\n", path);
		return -1;
	}
	/* An exact-size heap copy, so reads past the input are caught. */
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || (n && fread(buf, 1, (size_t)n, f) != (size_t)n)) {
		fclose(f);
		free(buf);
		fprintf(stderr, "%s: cannot read\n", path);
		return -1;
	}
	fclose(f);
	if (getenv("ONEFILE_VERBOSE"))
		fprintf(stderr, "onefile: %s (%ld bytes)\n", path, n);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	nrun++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;
	if (!d) {
		perror(dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!names[n])
			abort();
		sprintf(names[n], "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && run_file(names[i]) != 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0;
	for (i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (run_dir(argv[i]) != 0)
				rc = 1;
		} else if (run_file(argv[i]) != 0) {
			rc = 1;
		}
	}
	if (nrun == 0) {
		fprintf(stderr, "onefile: no input run\n");
		return 1;
	}
	printf("onefile: %lu passed, 0 failed\n", nrun);
	return rc;
}
