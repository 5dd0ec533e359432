package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** fct.csv: its columns, its rows (of both formats), and the slowdown buckets. */
class FctFileTest {

    @Test
    void writesTheColumnsAndReadsBack(@TempDir Path dir) throws Exception {
        List<FctFile.Row> rows = List.of(new FctFile.Row("h1", "h2", 5000, 10, 3000, 2000, 1200),
                new FctFile.Row("h2", "h1", 2_000_000, 20, -1, 9000, 8000),
                new FctFile.Row("h2", "h3", 100, 30, 4000, -1, 1000));
        Path f = dir.resolve("fct.csv");
        FctFile.write(f, rows);
        assertEquals(List.of("src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,standalone_fct_ps,slowdown,"
                + "slowdown_vs_standalone", "h1,h2,5000,10,3000,2000,1200,1.500000,2.500000",
                "h2,h1,2000000,20,,9000,8000,,",
                "h2,h3,100,30,4000,,1000,,4.000000"), Files.readAllLines(f));
        assertEquals(rows, FctFile.read(f));
        assertFalse(FctFile.readTable(f).oldFormat());
    }

    @Test
    void readsAFileWrittenBeforeTheStandaloneFct(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("fct.csv");
        Files.writeString(f, "src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,slowdown\n"
                + "h1,h2,5000,10,3000,2000,1.500000\nh2,h1,2000000,20,,9000,\n");
        FctFile.Table t = FctFile.readTable(f);
        assertTrue(t.oldFormat());
        assertEquals(List.of(new FctFile.Row("h1", "h2", 5000, 10, 3000, 2000, -1),
                new FctFile.Row("h2", "h1", 2_000_000, 20, -1, 9000, -1)), t.rows());
        assertEquals(1.5, t.rows().get(0).slowdown());
        assertTrue(Double.isNaN(t.rows().get(0).slowdownVsStandalone()));
        assertEquals(1, FctFile.buckets(t.rows()).get(0).flows());
        assertEquals(0, FctFile.bucketsVsStandalone(t.rows()).get(0).flows());
        Files.writeString(f, "src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,standalone_fct_ps,slowdown\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FctFile.read(f));
        assertTrue(e.getMessage().startsWith(f + ":1: expected the header src,dst,size_bytes,start_ps,fct_ps,"
                + "ideal_fct_ps,standalone_fct_ps,slowdown,slowdown_vs_standalone (or, from before"), e.getMessage());
    }

    @Test
    void bucketsBySizeWithNearestRankPercentiles() {
        java.util.List<FctFile.Row> rows = new java.util.ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            rows.add(new FctFile.Row("a", "b", 50_000, 0, 1000L * i, 1000)); // slowdowns 1..100
        }
        rows.add(new FctFile.Row("a", "b", 9_999, 0, 3, 2));
        rows.add(new FctFile.Row("a", "b", 1_000_000, 0, 5, 1));
        List<FctFile.Bucket> b = FctFile.buckets(rows);
        assertEquals(new FctFile.Bucket("<10KB", 1, 1.5, 1.5, 1.5), b.get(0));
        assertEquals(new FctFile.Bucket("10KB-100KB", 100, 50, 95, 99), b.get(1));
        assertEquals(0, b.get(2).flows());
        assertEquals(new FctFile.Bucket(">1MB", 1, 5, 5, 5), b.get(3));
    }
}
