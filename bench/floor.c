/* The least any validator can do on a planning tree: start a process, list
 * every folder and read every file once, with no parsing at all. bench/floor.sh
 * times it beside `gsd lint` to show how much of a call is fixed cost. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static long total;
static char buf[1 << 16];

static void walk(int dfd) {
    DIR *d = fdopendir(dfd);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && (e->d_name[1] == 0 || (e->d_name[1] == '.' && e->d_name[2] == 0)))
            continue;
        if (e->d_type == DT_DIR) {
            int sub = openat(dfd, e->d_name, O_RDONLY | O_DIRECTORY);
            if (sub >= 0) walk(sub);
        } else {
            int fd = openat(dfd, e->d_name, O_RDONLY);
            if (fd < 0) continue;
            long n;
            while ((n = read(fd, buf, sizeof buf)) > 0) total += n;
            close(fd);
        }
    }
    closedir(d);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    if (argc > 2) return 0; /* `floor DIR --start-only`: process start only */
    int fd = open(argv[1], O_RDONLY | O_DIRECTORY);
    if (fd < 0) return 1;
    walk(fd);
    printf("%ld\n", total);
    return 0;
}
