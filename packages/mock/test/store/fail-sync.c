/*
 * Loaded with LD_PRELOAD by sync-faults.test.ts: fdatasync(), with which LMDB flushes a commit to
 * the disk, fails while the file FAIL_SYNC_FLAG names exists, with ENOSPC, or EIO when the file
 * says "EIO". That is a disk that reports it is full, or failing, only when the data is flushed
 * (NFS, a thin-provisioned volume, a copy-on-write file system), which no tmpfs can play.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  const char *flag = getenv("FAIL_SYNC_FLAG");
  FILE *file = flag ? fopen(flag, "r") : NULL;
  if (file) {
    char word[4] = {0};
    size_t read = fread(word, 1, 3, file);
    fclose(file);
    errno = read == 3 && strcmp(word, "EIO") == 0 ? EIO : ENOSPC;
    return -1;
  }
  return real(fd);
}
