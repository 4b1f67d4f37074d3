#pragma once
// Standard Workload Format logs (Chapin et al., JSSPP 1999; the Parallel Workloads Archive): one job
// per line, 18 whitespace-separated fields, -1 for unknown; lines starting with ';' are header
// comments, of which `MaxProcs:` and `MaxNodes:` give the machine's size. Plain or gzip-compressed
// files, read as a stream (manual/scheduler.md).
#include <cstdint>
#include <string>
#include <vector>

namespace interflow::scheduler {

// The 18 fields, in order, as the log gives them (-1: unknown).
struct SwfRecord {
  std::int64_t job = -1;         // 1  job number
  double submit = -1;            // 2  submit time (s)
  double wait = -1;              // 3  wait time (s)
  double run = -1;               // 4  run time (s)
  std::int64_t allocated = -1;   // 5  allocated processors
  double cpu = -1;               // 6  average CPU time used (s)
  double memory = -1;            // 7  used memory (KB per processor)
  std::int64_t requested = -1;   // 8  requested processors
  double requested_time = -1;    // 9  requested time, the user's estimate (s)
  double requested_memory = -1;  // 10 requested memory
  std::int64_t status = -1;      // 11 status (1 completed, 0 failed, 5 cancelled, ...)
  std::int64_t user = -1;        // 12 user id
  std::int64_t group = -1;       // 13 group id
  std::int64_t executable = -1;  // 14 executable (application) number
  std::int64_t queue = -1;       // 15 queue number
  std::int64_t partition = -1;   // 16 partition number
  std::int64_t preceding = -1;   // 17 preceding job number
  double think = -1;             // 18 think time after the preceding job (s)
  std::uint64_t line = 0;        // where it is in the file
};

struct SwfLog {
  std::int64_t max_procs = -1, max_nodes = -1;  // from the header (-1: not given)
  std::vector<SwfRecord> records;               // in file order
  std::uint64_t lines = 0;                      // job lines read
};

// Reads `path` (gzip-compressed or plain). Throws InputError naming the file and line for a line
// without 18 numeric fields, and for a file that cannot be read.
SwfLog read_swf(const std::string& path);

}  // namespace interflow::scheduler
