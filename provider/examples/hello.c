/* A complete uDAPL program: the server (host A) accepts one connection and receives a message; the client (host B)
 * connects and sends it. Build: gcc -o hello hello.c -ldat2. Run on datsim: docs/bridge-guide.md. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dat2/udat.h>

#define CONN_QUAL 4242
#define CHECK(call) do { DAT_RETURN r_ = (call); if (r_ != DAT_SUCCESS) { \
    fprintf(stderr, "%s failed: 0x%x\n", #call, r_); exit(1); } } while (0)

static DAT_EVENT wait_for(DAT_EVD_HANDLE evd, DAT_EVENT_NUMBER want) {
    DAT_EVENT e; DAT_COUNT more;
    CHECK(dat_evd_wait(evd, DAT_TIMEOUT_INFINITE, 1, &e, &more));
    if (e.event_number != want) { fprintf(stderr, "event 0x%x, expected 0x%x\n", e.event_number, want); exit(1); }
    if (want == DAT_DTO_COMPLETION_EVENT && e.event_data.dto_completion_event_data.status != DAT_DTO_SUCCESS) {
        fprintf(stderr, "transfer failed\n"); exit(1); }
    return e;
}

int main(int argc, char **argv) {
    int server = argc > 2 && strcmp(argv[2], "server") == 0;
    if (argc < 3) { fprintf(stderr, "usage: hello PROVIDER server | hello PROVIDER SERVER_ADDRESS\n"); return 2; }
    DAT_IA_HANDLE ia; DAT_EVD_HANDLE async = DAT_HANDLE_NULL, dto, conn, cr; DAT_PZ_HANDLE pz; DAT_EP_HANDLE ep;
    CHECK(dat_ia_open(argv[1], 8, &async, &ia));
    CHECK(dat_pz_create(ia, &pz));
    CHECK(dat_evd_create(ia, 8, DAT_HANDLE_NULL, DAT_EVD_DTO_FLAG, &dto));
    CHECK(dat_evd_create(ia, 8, DAT_HANDLE_NULL, DAT_EVD_CONNECTION_FLAG, &conn));
    CHECK(dat_ep_create(ia, pz, dto, dto, conn, NULL, &ep));
    static char buf[64];
    DAT_REGION_DESCRIPTION region = {.for_va = buf};
    DAT_LMR_HANDLE lmr; DAT_LMR_TRIPLET iov; DAT_RMR_CONTEXT rmr; DAT_VLEN len; DAT_VADDR addr;
    CHECK(dat_lmr_create(ia, DAT_MEM_TYPE_VIRTUAL, region, sizeof buf, pz, DAT_MEM_PRIV_ALL_FLAG, DAT_VA_TYPE_VA,
                         &lmr, &iov.lmr_context, &rmr, &len, &addr));
    iov.virtual_address = (DAT_VADDR)(unsigned long)buf;
    iov.segment_length = sizeof buf;
    DAT_DTO_COOKIE cookie = {.as_64 = 1};
    if (server) {
        DAT_PSP_HANDLE psp;
        CHECK(dat_evd_create(ia, 8, DAT_HANDLE_NULL, DAT_EVD_CR_FLAG, &cr));
        CHECK(dat_psp_create(ia, CONN_QUAL, cr, DAT_PSP_CONSUMER_FLAG, &psp));
        printf("server: waiting for a connection\n"); fflush(stdout);
        DAT_EVENT e = wait_for(cr, DAT_CONNECTION_REQUEST_EVENT);
        CHECK(dat_ep_post_recv(ep, 1, &iov, cookie, DAT_COMPLETION_DEFAULT_FLAG));
        CHECK(dat_cr_accept(e.event_data.cr_arrival_event_data.cr_handle, ep, 0, NULL));
        wait_for(conn, DAT_CONNECTION_EVENT_ESTABLISHED);
        wait_for(dto, DAT_DTO_COMPLETION_EVENT);
        printf("server: received \"%s\"\n", buf);
        wait_for(conn, DAT_CONNECTION_EVENT_DISCONNECTED);
        CHECK(dat_psp_free(psp));
    } else {
        struct sockaddr_in peer = {.sin_family = AF_INET};
        inet_pton(AF_INET, argv[2], &peer.sin_addr);
        CHECK(dat_ep_connect(ep, (DAT_IA_ADDRESS_PTR)&peer, CONN_QUAL, DAT_TIMEOUT_INFINITE, 0, NULL,
                             DAT_QOS_BEST_EFFORT, DAT_CONNECT_DEFAULT_FLAG));
        wait_for(conn, DAT_CONNECTION_EVENT_ESTABLISHED);
        snprintf(buf, sizeof buf, "hello from the client");
        CHECK(dat_ep_post_send(ep, 1, &iov, cookie, DAT_COMPLETION_DEFAULT_FLAG));
        wait_for(dto, DAT_DTO_COMPLETION_EVENT);
        printf("client: sent \"%s\"\n", buf);
        CHECK(dat_ep_disconnect(ep, DAT_CLOSE_GRACEFUL_FLAG));
        wait_for(conn, DAT_CONNECTION_EVENT_DISCONNECTED);
    }
    CHECK(dat_ep_free(ep));
    CHECK(dat_lmr_free(lmr));
    CHECK(dat_ia_close(ia, DAT_CLOSE_ABRUPT_FLAG));
    return 0;
}
