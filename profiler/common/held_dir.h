/*
 * Folders held open from start to end (rlprof run's DIR, DIR/raw,
 * DIR/raw-native): a path under a held folder is resolved through the
 * folder's descriptor, one component at a time, never through a link
 * (openat with O_NOFOLLOW), so a folder or subfolder swapped for a link
 * while the program runs sends nothing elsewhere and no file is read from
 * elsewhere. Paths under no held folder are opened as given. The
 * functions set errno and return -1 / NULL on failure, as open() does.
 */
#ifndef RL_HELD_DIR_H
#define RL_HELD_DIR_H

#include <dirent.h>
#include <stdbool.h>
#include <sys/types.h>

/* Holds dir (an absolute path without links, as realpath gives) open
 * from now on; 0, or -1 with errno. At most 8 folders. */
int rl_held_dir_add(const char *dir);
/* Whether the held folder dir is still at its path: false when the path
 * is now a link, another folder, or nothing (*now_deleted: the held
 * folder itself was removed). */
bool rl_held_dir_in_place(const char *dir, bool *now_deleted);
/* Lets go of dir (and every held folder under it). */
void rl_held_dir_drop(const char *dir);
/* Lets go of every held folder. */
void rl_held_dir_drop_all(void);

/* The folder that holds path's last part, opened (a new descriptor), and
 * that last part in *name (pointing into path); for a path under no held
 * folder, the folder opened by path. */
int rl_held_parent(const char *path, const char **name);
/* open(path, flags, mode) through a held folder (O_NOFOLLOW added there). */
int rl_held_open(const char *path, int flags, mode_t mode);
/* opendir(path) through a held folder. */
DIR *rl_held_opendir(const char *path);
/* rename(from, to), both through held folders. */
int rl_held_rename(const char *from, const char *to);
/* unlink(path) (rmdir when dir) through a held folder. */
int rl_held_unlink(const char *path, bool dir);

#endif
