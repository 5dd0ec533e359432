package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * dat_ia_query, consumer contexts, handle types, dat_strerror, dat_evd_set_unwaitable / clear_unwaitable,
 * dat_evd_enable / disable and dat_evd_post_se, run from a scenario with expectations on every result.
 */
class SmallCallsTest {

    @TempDir
    Path dir;

    @Test
    void theUtilityAndEvdStateCallsBehaveAsTheManPagesSay() throws Exception {
        String json = ScenarioJson.scenario(
                "{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}],"
                        + " \"host_params\": {\"B\": {\"memory.coherence\": \"io_noncoherent\"}}}",
                ScenarioJson.process("a", "A", List.of(
                        "{\"call\": \"dat_ia_open\", \"out\": \"ia\"}",
                        "{\"call\": \"dat_ia_query\", \"ia\": \"$ia\", \"out\": \"q\", \"expect\": {\"attrs\":"
                                + " {\"lmr_sync_req\": false, \"max_rdma_read_per_ep_in\": 16}}}",
                        "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": \"= $q.lmr_sync_req + 2\","
                                + " \"evd_flags\": \"DAT_EVD_SOFTWARE_FLAG\", \"out\": \"evd\"}",
                        "{\"call\": \"dat_set_consumer_context\", \"handle\": \"$evd\", \"context\": 4242}",
                        "{\"call\": \"dat_get_consumer_context\", \"handle\": \"$evd\", \"out\": \"ctx\","
                                + " \"expect\": {\"context\": 4242}}",
                        "{\"call\": \"dat_get_handle_type\", \"handle\": \"$ia\", \"expect\":"
                                + " {\"handle_type\": \"DAT_HANDLE_TYPE_IA\"}}",
                        "{\"call\": \"dat_get_handle_type\", \"handle\": null, \"expect\":"
                                + " {\"ret\": \"DAT_INVALID_HANDLE\"}}",
                        "{\"call\": \"dat_strerror\", \"value\": \"DAT_INVALID_STATE/DAT_INVALID_STATE_EP_UNCONNECTED\","
                                + " \"expect\": {\"message\": \"DAT_INVALID_STATE DAT_INVALID_STATE_EP_UNCONNECTED\"}}",
                        "{\"call\": \"dat_evd_post_se\", \"evd\": \"$evd\", \"pointer\": \"= $ctx + 1\"}",
                        "{\"call\": \"dat_evd_post_se\", \"evd\": \"$evd\", \"pointer\": 2}",
                        "{\"call\": \"dat_evd_post_se\", \"evd\": \"$evd\", \"pointer\": 3, \"expect\":"
                                + " {\"ret\": \"DAT_QUEUE_FULL\"}}",
                        "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"event\":"
                                + " \"DAT_SOFTWARE_EVENT\", \"cookie\": 4243}}",
                        "{\"call\": \"dat_evd_disable\", \"evd\": \"$evd\"}",
                        "{\"call\": \"dat_evd_enable\", \"evd\": \"$evd\"}",
                        "{\"call\": \"dat_evd_set_unwaitable\", \"evd\": \"$evd\"}",
                        "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"expect\": {\"ret\":"
                                + " \"DAT_INVALID_STATE_EVD_UNWAITABLE\"}}",
                        "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"cookie\": 2}}",
                        "{\"call\": \"dat_evd_clear_unwaitable\", \"evd\": \"$evd\"}",
                        "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"timeout\": 20, \"out\": \"w\","
                                + " \"expect\": {\"event\": \"DAT_SOFTWARE_EVENT\", \"cookie\": 7}}")),
                ScenarioJson.process("b", "B", List.of(
                        "{\"call\": \"dat_ia_open\", \"out\": \"ia\"}",
                        "{\"call\": \"dat_ia_query\", \"ia\": \"$ia\", \"expect\": {\"attrs\": {\"lmr_sync_req\":"
                                + " true}}}",
                        "{\"call\": \"sleep\", \"time\": \"5us\"}",
                        "{\"call\": \"dat_evd_post_se\", \"evd\": \"$a/evd\", \"pointer\": 7}")));
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        int unwaitable = 0;
        for (JsonNode e : ScenarioJson.readTrace(dir.resolve("events.jsonl"))) {
            if ("call".equals(e.get("kind").asText()) && e.has("subtype")
                    && "DAT_INVALID_STATE_EVD_UNWAITABLE".equals(e.get("subtype").asText())) {
                unwaitable++;
            }
        }
        assertEquals(1, unwaitable);
    }

    @Test
    void setUnwaitableWakesAConsumerAlreadyBlockedInWait() throws Exception {
        String json = ScenarioJson.scenario(
                "{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}",
                ScenarioJson.process("w", "A", List.of(
                        "{\"call\": \"dat_ia_open\", \"out\": \"ia\"}",
                        "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 4,"
                                + " \"evd_flags\": \"DAT_EVD_SOFTWARE_FLAG\", \"out\": \"evd\"}",
                        "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"expect\": {\"ret\":"
                                + " \"DAT_INVALID_STATE\"}}")),
                ScenarioJson.process("x", "A", List.of(
                        "{\"call\": \"sleep\", \"time\": \"10us\"}",
                        "{\"call\": \"dat_evd_set_unwaitable\", \"evd\": \"$w/evd\"}")));
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
    }

    @Test
    void theObjectQueriesReportTheParametersAndRefuseAHandleOfAnotherType() throws Exception {
        String json = ScenarioJson.scenario(
                "{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}",
                ScenarioJson.process("a", "A", List.of(
                        "{\"call\": \"dat_ia_open\", \"out\": \"ia\"}",
                        "{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\"}",
                        "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 6,"
                                + " \"evd_flags\": \"DAT_EVD_DTO_FLAG|DAT_EVD_CONNECTION_FLAG|DAT_EVD_CR_FLAG\","
                                + " \"out\": \"evd\"}",
                        "{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 8192,"
                                + " \"out\": \"buf\"}",
                        "{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$evd\","
                                + " \"request_evd\": \"$evd\", \"connect_evd\": \"$evd\","
                                + " \"ep_attr\": {\"max_request_dtos\": 9}, \"out\": \"ep\"}",
                        "{\"call\": \"dat_psp_create\", \"ia\": \"$ia\", \"conn_qual\": 77, \"evd\": \"$evd\","
                                + " \"out\": \"psp\"}",
                        "{\"call\": \"dat_lmr_query\", \"lmr\": \"$buf\", \"out\": \"lq\","
                                + " \"expect\": {\"attrs\": {\"registered_size\": 8192, \"mem_priv\": 51}}}",
                        "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"offset\": \"= $lq.registered_address"
                                + " - $buf.address\", \"length\": 1}",
                        "{\"call\": \"dat_ep_query\", \"ep\": \"$ep\", \"expect\": {\"attrs\": {\"ep_state\": 0,"
                                + " \"max_request_dtos\": 9, \"max_rdma_read_out\": 4}}}",
                        "{\"call\": \"dat_evd_query\", \"evd\": \"$evd\", \"expect\": {\"attrs\": {\"evd_qlen\": 6,"
                                + " \"evd_size\": 0, \"evd_state\": 5}}}",
                        "{\"call\": \"dat_psp_query\", \"psp\": \"$psp\", \"expect\": {\"attrs\":"
                                + " {\"conn_qual\": 77}}}",
                        "{\"call\": \"dat_pz_query\", \"pz\": \"$pz\"}",
                        "{\"call\": \"dat_lmr_query\", \"lmr\": \"$ep\", \"expect\": {\"ret\":"
                                + " \"DAT_INVALID_HANDLE_LMR\"}}",
                        "{\"call\": \"dat_rmr_create\", \"pz\": \"$pz\", \"out\": \"win\"}",
                        "{\"call\": \"dat_rmr_query\", \"rmr\": \"$win\", \"expect\": {\"attrs\":"
                                + " {\"segment_length\": 0}}}")));
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
    }

    @Test
    void resizeKeepsEveryEventAndRefusesToShrinkBelowWhatIsQueued() throws Exception {
        String json = ScenarioJson.scenario(
                "{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}",
                ScenarioJson.process("a", "A", List.of(
                        "{\"call\": \"dat_ia_open\", \"out\": \"ia\"}",
                        "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 2,"
                                + " \"evd_flags\": \"DAT_EVD_SOFTWARE_FLAG\", \"out\": \"evd\"}",
                        "{\"repeat\": 2, \"as\": \"i\", \"calls\": [{\"call\": \"dat_evd_post_se\", \"evd\":"
                                + " \"$evd\", \"pointer\": \"$i\"}]}",
                        "{\"call\": \"dat_evd_resize\", \"evd\": \"$evd\", \"evd_min_qlen\": 1,"
                                + " \"expect\": {\"ret\": \"DAT_INVALID_STATE\"}}",
                        "{\"call\": \"dat_evd_resize\", \"evd\": \"$evd\", \"evd_min_qlen\": 0,"
                                + " \"expect\": {\"ret\": \"DAT_INVALID_ARG2\"}}",
                        "{\"call\": \"dat_evd_resize\", \"evd\": \"$evd\", \"evd_min_qlen\": 3}",
                        "{\"call\": \"dat_evd_post_se\", \"evd\": \"$evd\", \"pointer\": 2}",
                        "{\"call\": \"dat_evd_query\", \"evd\": \"$evd\", \"expect\": {\"attrs\": {\"evd_qlen\": 3,"
                                + " \"evd_size\": 3}}}",
                        "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"cookie\": 0}}",
                        "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"cookie\": 1}}",
                        "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"cookie\": 2}}",
                        "{\"call\": \"dat_evd_query\", \"evd\": \"$evd\", \"expect\": {\"attrs\":"
                                + " {\"evd_size\": 0}}}")));
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
    }
}
