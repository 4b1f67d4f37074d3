"""Reads the report of GNU `/usr/bin/time -v -o FILE`: wall time in seconds and peak RSS in MiB.
Shared by the bench/*.sh scripts (imported with bench/ on sys.path)."""
import re


def read(path):
    text = open(path).read()
    wall = text.split("Elapsed (wall clock) time (h:mm:ss or m:ss):")[1].split()[0]
    seconds = sum(float(p) * 60 ** k for k, p in enumerate(reversed(wall.split(":"))))
    rss_mib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1)) / 1024
    return seconds, rss_mib
