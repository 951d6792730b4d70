import Foundation
import OutboxTestSupport
import Testing

/// Every bad input of issue 2: its sysexits code, a message, and nothing written.
@Suite("CLI bad input")
struct BadInputTests {
    /// A database with one message in it, so "nothing written" is checked against real rows.
    static func seeded() -> CLI {
        let cli = CLI("bad")
        _ = cli.mail()
        #expect(cli.counts()["message"] == 1)
        #expect(cli.counts()["message_search_docsize"] == 1)
        return cli
    }

    @Test func missingAttachmentIs66() {
        let cli = Self.seeded()
        cli.refused(66, ["mail", "--to", "ada@example.org", "--subject", "s", "--body", "b", "--attach", cli.temporary.file("missing.pdf")])
        cli.refused(66, ["mail", "--to", "ada@example.org", "--subject", "s", "--body-file", cli.temporary.file("missing.txt")])
        cli.refused(66, ["print", cli.temporary.file("missing.pdf")])
        cli.refused(66, ["share", cli.temporary.file("missing.pdf"), "--mail", "ada@example.org"])
        cli.refused(66, ["import", cli.temporary.file("missing.jsonl")])
    }

    /// Standard input spooled for `--attach -` is removed even when the command is refused.
    @Test func refusedComposeLeavesNoSpooledStdin() throws {
        let cli = Self.seeded()
        var runner = cli.runner
        let spool = cli.temporary.file("spool")
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        runner.extraEnvironment["TMPDIR"] = spool + "/"
        let missing = cli.temporary.file("missing.pdf")
        #expect(runner.run(["mail", "--to", "ada@example.org", "--subject", "s", "--body", "b", "--attach", "-", "--attach", missing], stdin: "data").status == 66)
        #expect(runner.run(["print", "-", missing], stdin: "%PDF-1.4").status == 66)
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool).isEmpty)
    }

    @Test func unreadableAttachmentIs66() throws {
        guard getuid() != 0 else { return } // root reads everything
        let cli = Self.seeded()
        let path = cli.temporary.write("secret.pdf", "%PDF-1.4")
        chmod(path, 0o000)
        cli.refused(66, ["mail", "--to", "ada@example.org", "--subject", "s", "--body", "b", "--attach", path])
    }

    @Test func invalidAddressIs65() {
        let cli = Self.seeded()
        for flag in ["--to", "--cc", "--bcc", "--from", "--reply-to"] {
            cli.refused(65, ["mail", "--to", "ada@example.org", flag, "not-an-address", "--subject", "s", "--body", "b"])
        }
        cli.refused(65, ["mail", "--to", "ada@example.org, broken@", "--subject", "s", "--body", "b"])
        cli.refused(65, ["share", cli.temporary.write("note.txt", "hi"), "--mail", "nobody"])
    }

    @Test func lineBreaksOrNULInHeadersAre65() {
        let cli = Self.seeded()
        let base = ["mail", "--to", "ada@example.org", "--body", "b"]
        cli.refused(65, base + ["--subject", "Hello\r\nBcc: victim@example.org"])
        cli.refused(65, base + ["--subject", "Hello\nthere"])
        cli.refused(65, base + ["--subject", "Hello\rthere"])
        cli.refused(65, base + ["--subject", "s", "--header", "X-Tag: a\r\nBcc: victim@example.org"])
        cli.refused(65, base + ["--subject", "s", "--header", "X Bad Name: v"])
        cli.refused(65, ["mail", "--to", "Ada\n <ada@example.org>", "--subject", "s", "--body", "b"])
        let file = cli.temporary.write("a.pdf", "%PDF-1.4")
        cli.refused(65, base + ["--subject", "s", "--attach", "\(file);name=evil\r\nX: y.pdf"])
        // NUL cannot travel in argv, but it can in an import line.
        cli.refused(65, ["import", "-"], stdin: #"{"channel":"mail","to":"ada@example.org","subject":"a\u0000b","body":"x"}"# + "\n")
    }

    @Test func invalidPhoneNumberIs65() {
        let cli = Self.seeded()
        for number in ["12", "+49 151 CALL", "0151 12345678", "+1234567890123456"] {
            cli.refused(65, ["sms", "--to", number, "--body", "hi"])
        }
        // One bad number among good ones: none are stored.
        cli.refused(65, ["sms", "--to", "+4915112345678", "--to", "bogus", "--body", "hi"])
    }

    @Test func printFileOfUnknownTypeIs65() {
        let cli = Self.seeded()
        let zip = cli.temporary.write("archive.pdf", Data([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 60)))
        cli.refused(65, ["print", zip])
        let binary = cli.temporary.write("blob.txt", Data((0..<256).map { UInt8($0) }))
        cli.refused(65, ["print", binary])
        let pdf = cli.temporary.write("ok.pdf", "%PDF-1.4\n")
        cli.refused(65, ["print", pdf, zip]) // one bad file among good ones
        cli.refused(65, ["share", zip, "--print", "pdf"])
    }

    @Test func emptyPrintContentIsRefused() {
        let cli = Self.seeded()
        let result = cli.refused(65, ["print", "--text", "   \n "])
        _ = result
        cli.refused(64, ["print"])
    }

    @Test func unknownFlagIs64WithDidYouMean() {
        let cli = Self.seeded()
        let result = cli.refused(64, ["history", "--stat", "failed"])
        #expect(result.stderr.contains("--state"))
        let mail = cli.refused(64, ["mail", "--too", "ada@example.org", "--subject", "s", "--body", "b"])
        #expect(mail.stderr.contains("--to"))
        cli.refused(64, ["mail", "-t", "ada@example.org"])
        let command = cli.refused(64, ["hsitory"])
        #expect(command.stderr.contains("history"))
        cli.refused(64, ["--nonsense", "status"])
    }

    @Test func unknownStateIs64WithDidYouMean() {
        let cli = Self.seeded()
        let result = cli.refused(64, ["history", "--state", "faild"])
        #expect(result.stderr.contains("failed"))
        cli.refused(64, ["purge", "--older-than", "1d", "--state", "snet"])
        cli.refused(64, ["purge", "--older-than", "1d", "--state", "queued"])
        cli.refused(64, ["history", "--channel", "fax"])
        cli.refused(64, ["retry", "--failed", "--channel", "fax"])
    }

    @Test func otherUsageErrorsAre64() {
        let cli = Self.seeded()
        cli.refused(64, ["mail", "--to", "ada@example.org", "--body", "b"])             // no subject
        cli.refused(64, ["mail", "--subject", "s", "--body", "b"])                      // no recipient
        cli.refused(64, ["mail", "--to", "ada@example.org", "--subject", "s", "--body", "b", "--at", "someday"])
        cli.refused(64, ["mail", "--to", "ada@example.org", "--subject", "s", "--body", "b", "--priority", "high"])
        cli.refused(64, ["sms", "--to", "+4915112345678"], stdin: "")                   // no text
        cli.refused(64, ["show"])
        cli.refused(64, ["show", "abc"])
        cli.refused(64, ["retry"])
        cli.refused(64, ["purge"])
        cli.refused(64, ["history", "--limit", "lots"])
        cli.refused(64, ["print", "--text", "x", "--copies", "0"])
        cli.refused(64, ["print", "--text", "x", "--duplex", "sideways"])
    }

    @Test func malformedConfigIs78WhateverTheCommand() {
        let cli = Self.seeded()
        let broken = cli.temporary.write("broken.json", "{ \"mail\": ")
        let unknown = cli.temporary.write("unknown.json", #"{"mail": {"smpt": {}}}"#)
        let secret = cli.temporary.write("secret.json", #"{"mail": {"sink": "smtp", "smtp": {"url": "smtp://x", "password": "hunter2"}}}"#)
        for config in [broken, unknown, secret] {
            cli.refused(78, ["--config", config, "mail", "--to", "ada@example.org", "--subject", "s", "--body", "b"])
            cli.refused(78, ["--config", config, "history"])
        }
        let unknownResult = cli.refused(78, ["--config", unknown, "status"])
        #expect(unknownResult.stderr.contains("mail.smpt"))
        let secretResult = cli.refused(78, ["--config", secret, "status"])
        #expect(!secretResult.stderr.contains("hunter2"))
        // Through $OUTBOX_CONFIG and the XDG location too.
        var runner = cli.runner
        runner.extraEnvironment["OUTBOX_CONFIG"] = broken
        #expect(runner.run(["status", "--no-probe"]).status == 78)
        cli.temporary.write("home/.config/outbox/config.json", "[1, 2")
        #expect(cli.run("status", "--no-probe").status == 78)
        #expect(cli.run("--config", cli.temporary.file("absent.json"), "status").status == 78)
    }

    @Test func importWithOneBadLineImportsNothing() {
        let cli = Self.seeded()
        let good = #"{"channel":"mail","to":["ada@example.org"],"subject":"ok","body":"fine"}"#
        let sms = #"{"channel":"sms","to":"+4915112345678","body":"ok"}"#
        let cases = [
            #"{"channel":"mail","to":["not-an-address"],"subject":"x","body":"y"}"#,
            #"{"channel":"sms","to":"123","body":"y"}"#,
            #"{"channel":"mail","to":["ada@example.org"],"subjct":"x","body":"y"}"#,
            #"{"channel":"fax","to":"x"}"#,
            #"{"channel":"mail","to":["ada@example.org"],"subject":"x","attach":["/nonexistent/file.pdf"]}"#,
            #"{"channel":"mail", broken json"#,
            #"["not", "an", "object"]"#,
        ]
        for (index, bad) in cases.enumerated() {
            let file = cli.temporary.write("import-\(index).jsonl", [good, sms, good, bad, good].joined(separator: "\n") + "\n")
            let expected: Int32 = bad.contains("nonexistent") ? 66 : 65
            let result = cli.refused(expected, ["import", file])
            #expect(result.stderr.contains("line 4"), "\(result.stderr)")
        }
        // Two lines with the same key in one file.
        let keyed = #"{"channel":"sms","to":"+4915112345678","body":"ok","key":"k1"}"#
        cli.refused(65, ["import", "-"], stdin: [keyed, keyed].joined(separator: "\n"))
        cli.refused(65, ["import", "-"], stdin: "\n\n")
        // Read and stored a chunk at a time: a bad line chunks after the first still rolls back
        // everything (from a file and from standard input).
        var many = Array(repeating: good, count: 5_000)
        many[4_499] = cases[0]
        let result = cli.refused(65, ["import", cli.temporary.write("many.jsonl", many.joined(separator: "\n"))])
        #expect(result.stderr.contains("line 4500"), "\(result.stderr)")
        #expect(cli.refused(65, ["import", "-"], stdin: many.joined(separator: "\n")).stderr.contains("line 4500"))
    }

    @Test func databaseDirectoryThatCannotBeCreatedIs73() {
        let cli = CLI("mkdir")
        let file = cli.temporary.write("regular-file", "x")
        let result = cli.run("--db", file + "/sub/outbox.sqlite", "mail", "--to", "ada@example.org", "--subject", "s", "--body", "b")
        #expect(result.status == 73, "\(result)")
        #expect(cli.run("--db", file + "/outbox.sqlite", "init").status == 73)
        var runner = cli.runner
        runner.extraEnvironment["OUTBOX_DB"] = file + "/sub/outbox.sqlite"
        #expect(runner.run(["init"]).status == 73)
    }

    @Test func databaseOfTheWrongKindIsRefusedUnchanged() throws {
        let cli = CLI("wrongdb")
        let notSQLite = cli.temporary.write("notes.txt", String(repeating: "just some notes\n", count: 100))
        let digest = try fileDigest(notSQLite)
        for command in [["status", "--no-probe"], ["init"], ["migrate"], ["history"], ["mail", "--to", "a@example.org", "--subject", "s", "--body", "b"]] {
            let result = cli.run(["--db", notSQLite] + command)
            #expect(result.status == 65, "\(command) → \(result)")
        }
        #expect(try fileDigest(notSQLite) == digest)

        // A database from a newer outbox.
        #expect(cli.run("init").status == 0)
        try cli.temporary.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', 0)")
        let newer = try fileDigest(cli.temporary.path)
        for command in [["status", "--no-probe"], ["migrate"], ["migrate", "--status"], ["history"]] {
            #expect(cli.run(command).status == 65, "\(command)")
        }
        #expect(try fileDigest(cli.temporary.path) == newer)
    }
}
