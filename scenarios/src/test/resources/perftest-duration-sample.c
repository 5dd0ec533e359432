/* Prints perftest-duration-sample.txt: perftest's duration-mode format strings, copied from linux-rdma/perftest
 * src/perftest_parameters.h at commit 00b55b6, with the values of PerftestDurationTest. gcc -o dur this.c && ./dur */
#include <stdio.h>
#include <inttypes.h>
#define RESULT_LINE "---------------------------------------------------------------------------------------\n"
#define RESULT_FMT_G	" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"
#define RESULT_FMT_LAT_DUR " #bytes        #iterations       t_avg[usec]    tps average"
#define REPORT_FMT " %-7lu    %-10" PRIu64 "       %-7.2lf            %-7.2lf		     %-7.6lf"
#define REPORT_EXT	"\n"
#define REPORT_FMT_LAT_DUR " %-7lu       %" PRIu64 "            %-7.2f        %-7.2f"
int main(void) {
  printf(RESULT_LINE);
  printf("%s", RESULT_FMT_LAT_DUR); printf("\n");
  printf(REPORT_FMT_LAT_DUR, (unsigned long)2, (uint64_t)566074, 1.765, 566074.0); printf(REPORT_EXT);
  printf(REPORT_FMT_LAT_DUR, (unsigned long)8, (uint64_t)12, 1234.125, 9.5); printf(REPORT_EXT);
  printf(RESULT_LINE);
  printf(RESULT_FMT_G); printf("\n");
  printf(REPORT_FMT, (unsigned long)65536, (uint64_t)529661, 0.0, 96.41, 0.176554); printf(REPORT_EXT);
  printf(RESULT_LINE);
  return 0;
}
