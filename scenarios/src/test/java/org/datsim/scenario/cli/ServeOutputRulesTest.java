package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code datsim serve}'s files: --out follows run's marker rules, and --socket never replaces a user's file; each
 * refusal is exit 2 with one message, before anything is written.
 */
class ServeOutputRulesTest {

    @TempDir
    Path dir;

    private int serve(StringWriter err, String... args) throws Exception {
        Path fabric = dir.resolve("fabric.json");
        Files.writeString(fabric, "{\"scenario\": \"t\", \"seed\": 1, \"fabric\": {\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
        Path lib = Files.writeString(dir.resolve("libdatsim.so"), "not used: serve refuses before it serves");
        String[] all = new String[args.length + 4];
        all[0] = "serve";
        all[1] = fabric.toString();
        all[2] = "--provider";
        all[3] = lib.toString();
        System.arraycopy(args, 0, all, 4, args.length);
        return DatsimCli.execute(all, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    }

    @Test
    void serveOutRefusesADirectoryOfTheUsersFiles() throws Exception {
        Path out = Files.createDirectory(dir.resolve("mine"));
        Path conf = Files.writeString(out.resolve("dat.conf"), "the user's own dat.conf");
        StringWriter err = new StringWriter();
        assertEquals(DatsimCli.EXIT_INVALID, serve(err, "--out", out.toString()));
        assertTrue(err.toString().contains("is not empty and datsim did not create it"), err.toString());
        assertEquals("the user's own dat.conf", Files.readString(conf));
        assertFalse(Files.exists(out.resolve(".datsim-outputs")));
    }

    @Test
    void serveSocketRefusesToReplaceAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("notes.txt"), "a user's file");
        StringWriter err = new StringWriter();
        assertEquals(DatsimCli.EXIT_INVALID, serve(err, "--out", dir.resolve("new").toString(), "--socket",
                file.toString()));
        assertTrue(err.toString().contains(file + " exists and is not a socket; datsim serve does not replace it"),
                err.toString());
        assertEquals("a user's file", Files.readString(file));
        assertFalse(Files.exists(dir.resolve("new/dat.conf")), "nothing written before the socket is bound");
    }

    @Test
    void serveOutRefusesALinkWhereItsDatConfGoes() throws Exception {
        Path out = Files.createDirectory(dir.resolve("marked"));
        Files.writeString(out.resolve(".datsim-outputs"), "# written by datsim\n");
        Path target = Files.writeString(dir.resolve("elsewhere"), "not datsim's");
        Files.createSymbolicLink(out.resolve("dat.conf"), target);
        StringWriter err = new StringWriter();
        assertEquals(DatsimCli.EXIT_INVALID, serve(err, "--out", out.toString()));
        assertTrue(err.toString().contains("dat.conf exists and is not a regular file; not replaced"), err.toString());
        assertEquals("not datsim's", Files.readString(target));
    }
}
