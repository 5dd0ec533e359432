package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dat_ep_reset and dat_psp_create_any: an endpoint disconnected, reset and connected again to a service point whose
 * connection qualifier the provider chose, carrying data both times; reset refused while connected; provider-created
 * endpoints refused as not supported.
 */
class EndpointReuseTest {

    @TempDir
    Path dir;

    private static final String B_SETUP = "{\"call\": \"dat_ia_open\", \"out\": \"ia\"},"
            + "{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\"},"
            + "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 8, \"evd_flags\": \"DAT_EVD_CR_FLAG\","
            + " \"out\": \"cr_evd\"},"
            + "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 8,"
            + " \"evd_flags\": \"DAT_EVD_CONNECTION_FLAG\", \"out\": \"conn_evd\"},"
            + "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 16, \"evd_flags\": \"DAT_EVD_DTO_FLAG\","
            + " \"out\": \"dto_evd\"},"
            + "{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 64, \"out\": \"buf\"},"
            + "{\"call\": \"dat_psp_create\", \"ia\": \"$ia\", \"conn_qual\": 1, \"evd\": \"$cr_evd\","
            + " \"psp_flags\": \"DAT_PSP_PROVIDER_FLAG\", \"expect\": {\"ret\": \"DAT_MODEL_NOT_SUPPORTED\"}},"
            + "{\"call\": \"dat_psp_create_any\", \"ia\": \"$ia\", \"evd\": \"$cr_evd\", \"out\": \"psp\"}";

    private static String bRound(int cookie) {
        return "{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$dto_evd\","
                + " \"request_evd\": \"$dto_evd\", \"connect_evd\": \"$conn_evd\", \"out\": \"ep\"},"
                + "{\"call\": \"dat_ep_post_recv\", \"ep\": \"$ep\", \"local_iov\": [{\"lmr\": \"$buf\", \"length\": 64}],"
                + " \"user_cookie\": " + cookie + "},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$cr_evd\", \"out\": \"req\"},"
                + "{\"call\": \"dat_cr_accept\", \"cr\": \"$req.cr\", \"ep\": \"$ep\"},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$dto_evd\", \"expect\": {\"cookie\": " + cookie + "}},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_DISCONNECTED\"}},"
                + "{\"call\": \"dat_ep_free\", \"ep\": \"$ep\"}";
    }

    private static String aRound(int cookie) {
        return "{\"call\": \"dat_ep_connect\", \"ep\": \"$ep\", \"remote_ia_address\": \"B\","
                + " \"remote_conn_qual\": \"$b/psp.conn_qual\"},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}},"
                + "{\"call\": \"dat_ep_reset\", \"ep\": \"$ep\", \"expect\": {\"ret\": \"DAT_INVALID_STATE\"}},"
                + "{\"call\": \"dat_ep_post_send\", \"ep\": \"$ep\", \"local_iov\": [{\"lmr\": \"$buf\", \"length\": 8}],"
                + " \"user_cookie\": " + cookie + "},"
                + "{\"call\": \"dat_ep_get_status\", \"ep\": \"$ep\", \"expect\": {\"state\": \"DAT_EP_STATE_CONNECTED\","
                + " \"request_idle\": false}},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$dto_evd\", \"expect\": {\"status\": \"DAT_DTO_SUCCESS\","
                + " \"cookie\": " + cookie + "}},"
                + "{\"call\": \"dat_ep_disconnect\", \"ep\": \"$ep\", \"flags\": \"DAT_CLOSE_GRACEFUL_FLAG\"},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_DISCONNECTED\"}},"
                + "{\"call\": \"dat_ep_reset\", \"ep\": \"$ep\"},"
                + "{\"call\": \"dat_ep_get_status\", \"ep\": \"$ep\", \"expect\": {\"state\": \"DAT_EP_STATE_UNCONNECTED\","
                + " \"recv_idle\": true, \"request_idle\": true}}";
    }

    @Test
    void anEndpointIsResetAndConnectedAgain() throws Exception {
        String b = "{\"name\": \"b\", \"host\": \"B\", \"calls\": [" + B_SETUP + "," + bRound(1) + "," + bRound(2)
                + "]}";
        String a = "{\"name\": \"a\", \"host\": \"A\", \"start\": \"2us\", \"calls\": ["
                + "{\"call\": \"dat_ia_open\", \"out\": \"ia\"},"
                + "{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\"},"
                + "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 8,"
                + " \"evd_flags\": \"DAT_EVD_CONNECTION_FLAG\", \"out\": \"conn_evd\"},"
                + "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 16,"
                + " \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"dto_evd\"},"
                + "{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 64, \"out\": \"buf\"},"
                + "{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$dto_evd\","
                + " \"request_evd\": \"$dto_evd\", \"connect_evd\": \"$conn_evd\", \"out\": \"ep\"},"
                + "{\"call\": \"dat_ep_reset\", \"ep\": \"$ep\", \"comment\": \"a no-op in UNCONNECTED\"},"
                + aRound(11) + "," + aRound(12) + "]}";
        String json = ScenarioJson.scenario("{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}",
                b, a);
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
    }

    @Test
    void aConnectionRequestHandedOffIsAcceptedAtTheOtherServicePoint() throws Exception {
        String b = "{\"name\": \"b\", \"host\": \"B\", \"calls\": [" + B_SETUP + ","
                + "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 8,"
                + " \"evd_flags\": \"DAT_EVD_CR_FLAG\", \"out\": \"cr_evd2\"},"
                + "{\"call\": \"dat_psp_create\", \"ia\": \"$ia\", \"conn_qual\": 500, \"evd\": \"$cr_evd2\","
                + " \"out\": \"psp2\"},"
                + "{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$dto_evd\","
                + " \"request_evd\": \"$dto_evd\", \"connect_evd\": \"$conn_evd\", \"out\": \"ep\"},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$cr_evd\", \"out\": \"req\"},"
                + "{\"call\": \"dat_cr_handoff\", \"cr\": \"$req.cr\", \"handoff\": 501, \"expect\":"
                + " {\"ret\": \"DAT_INVALID_PARAMETER\"}},"
                + "{\"call\": \"dat_cr_handoff\", \"cr\": \"$req.cr\", \"handoff\": 500},"
                + "{\"call\": \"dat_cr_accept\", \"cr\": \"$req.cr\", \"ep\": \"$ep\", \"expect\": {\"ret\":"
                + " \"DAT_INVALID_HANDLE\"}, \"comment\": \"the handed-off request is destroyed\"},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$cr_evd2\", \"out\": \"req2\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_REQUEST_EVENT\"}},"
                + "{\"call\": \"dat_cr_accept\", \"cr\": \"$req2.cr\", \"ep\": \"$ep\"},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$conn_evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}}]}";
        String a = "{\"name\": \"a\", \"host\": \"A\", \"start\": \"2us\", \"calls\": ["
                + "{\"call\": \"dat_ia_open\", \"out\": \"ia\"},"
                + "{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\"},"
                + "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 8,"
                + " \"evd_flags\": \"DAT_EVD_CONNECTION_FLAG|DAT_EVD_DTO_FLAG\", \"out\": \"evd\"},"
                + "{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$evd\","
                + " \"request_evd\": \"$evd\", \"connect_evd\": \"$evd\", \"out\": \"ep\"},"
                + "{\"call\": \"dat_ep_connect\", \"ep\": \"$ep\", \"remote_ia_address\": \"B\","
                + " \"remote_conn_qual\": \"$b/psp.conn_qual\"},"
                + "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"expect\": {\"event\":"
                + " \"DAT_CONNECTION_EVENT_ESTABLISHED\"}}]}";
        String json = ScenarioJson.scenario("{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}",
                b, a);
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
    }
}
