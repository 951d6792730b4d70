import Foundation
import OutboxTestSupport
import Testing

/// Every command of issue 2, end to end through the built binary.
@Suite("CLI commands")
struct CommandTests {
    static let commands = ["mail", "sms", "print", "share", "import", "drafts", "edit", "send", "discard", "history",
                           "list", "show", "cancel", "retry", "status", "purge", "init", "migrate"]

    @Test func versionAndHelp() {
        let cli = CLI()
        let version = cli.ok("--version")
        #expect(version.stdout.hasPrefix("outbox "))
        let help = cli.ok("help")
        for command in Self.commands where command != "list" {
            #expect(help.stdout.contains(command), "help does not list \(command)")
        }
        #expect(cli.ok("--help").stdout == help.stdout)
        #expect(!cli.temporary.exists, "help must not create the database")
    }

    @Test(arguments: commands)
    func commandHelpIsGeneratedAndTouchesNothing(command: String) {
        let cli = CLI()
        let help = cli.ok(command, "--help")
        #expect(help.stdout.contains(command == "list" ? "history" : command))
        #expect(cli.ok("help", command).stdout == help.stdout)
        #expect(!cli.temporary.exists)
    }

    @Test func helpForMailListsItsFlags() {
        let cli = CLI()
        let help = cli.ok("mail", "--help").stdout
        for flag in ["--to", "--cc", "--bcc", "--from", "--reply-to", "--subject", "--body", "--body-file", "--html-file",
                     "--attach", "--draft", "--at", "--key"] {
            #expect(help.contains(flag), "mail --help lacks \(flag)")
        }
    }

    @Test func initAndMigrate() {
        let cli = CLI()
        cli.ok("init")
        #expect(cli.temporary.exists)
        cli.ok("init") // again: nothing to do
        cli.ok("migrate")
        let status = cli.ok("migrate", "--status", "--json")
        #expect(status.jsonLines.count >= 1)
        #expect(status.jsonLines.allSatisfy { $0["pending"] == nil })
        #expect(cli.counts()["schema_migrations"] == status.jsonLines.count)
    }

    @Test func initCreatesMissingDirectoriesAndHonoursXDG() {
        let cli = CLI()
        let nested = cli.temporary.file("a/b/c/outbox.sqlite")
        cli.ok("--db", nested, "init")
        #expect(FileManager.default.fileExists(atPath: nested))
        var runner = cli.runner
        runner.extraEnvironment["OUTBOX_DB"] = ""
        #expect(runner.run(["init"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: cli.runner.home + "/.local/share/outbox/outbox.sqlite"))
    }

    @Test func mailStoresEverythingAndPrintsTheId() throws {
        let cli = CLI()
        let html = cli.temporary.write("body.html", "<p>Hi</p>")
        let pdf = cli.temporary.write("minutes.pdf", "%PDF-1.4\nminutes")
        let result = cli.ok("mail", "--to", "Ada <ada@example.org>", "--to", "grace@example.com", "--cc", "c@example.org",
                            "--bcc", "b@example.org", "--from", "me@example.org", "--reply-to", "r@example.org",
                            "--subject", "Minutes", "--body", "See attached", "--html-file", html,
                            "--attach", pdf, "--attach", "\(pdf);type=application/x-custom;name=renamed.pdf",
                            "--header", "X-Ticket: 42")
        #expect(result.lines == ["1"])
        let show = cli.ok("show", "1", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "queued")
        #expect(object["channel"] as? String == "mail")
        let attachments = try #require(object["attachments"] as? [[String: Any]])
        #expect(attachments.count == 2)
        #expect(attachments.compactMap { $0["filename"] as? String } == ["minutes.pdf", "renamed.pdf"])
        #expect(attachments.last?["mime_type"] as? String == "application/x-custom")
        #expect(attachments.first?["sha256"] as? String == (try fileDigest(pdf)))
        #expect(cli.counts()["blob"] == 1)
        #expect(cli.counts()["attachment"] == 2)
        // Human output too.
        #expect(cli.ok("show", "1").stdout.contains("Minutes"))
    }

    @Test func mailBodyFromStdinAndAttachmentFromStdin() throws {
        let cli = CLI()
        cli.ok("mail", "--to", "ada@example.org", "--subject", "piped", stdin: "body from a pipe")
        let show = cli.ok("show", "1", "--json").stdout
        #expect(show.contains("body from a pipe"))
        cli.ok("mail", "--to", "ada@example.org", "--subject", "att", "--body", "b", "--attach", "-;name=data.csv;type=text/csv", stdin: "a,b\n1,2\n")
        #expect(cli.ok("show", "2", "--json").stdout.contains("data.csv"))
        #expect(cli.counts()["blob"] == 1)
    }

    @Test func mailWithTheSameKeyReturnsTheSameIdAndWritesNothing() {
        let cli = CLI()
        let first = cli.ok("mail", "--to", "ada@example.org", "--subject", "once", "--body", "b", "--key", "invoice-7", stdin: "")
        let before = cli.counts()
        let second = cli.ok("mail", "--to", "ada@example.org", "--subject", "once", "--body", "b", "--key", "invoice-7", stdin: "")
        #expect(second.lines == first.lines)
        #expect(cli.counts() == before)
        #expect(before["message"] == 1)
        // The same key on sms returns the original mail's id, writing nothing.
        let third = cli.ok("sms", "--to", "+4915112345678", "--body", "x", "--key", "invoice-7", stdin: "")
        #expect(third.lines.first == first.lines.first)
        #expect(cli.counts() == before)
    }

    @Test func fiftyMegabyteAttachmentIsStreamed() throws {
        let cli = CLI("big")
        let path = cli.temporary.file("big.bin")
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var chunk = Data(count: 1 << 20)
        for index in 0..<50 {
            chunk.withUnsafeMutableBytes { buffer in
                for i in stride(from: 0, to: buffer.count, by: 8) { buffer.storeBytes(of: UInt64(i &* 2654435761 &+ index), toByteOffset: i, as: UInt64.self) }
            }
            try handle.write(contentsOf: chunk)
        }
        try handle.close()
        // The same command with a tiny attachment is the baseline (the binary, Foundation, SQLite).
        let small = cli.temporary.write("small.bin", "tiny")
        let baseline = cli.ok("mail", "--to", "ada@example.org", "--subject", "small", "--body", "b", "--attach", small)
        let result = cli.ok("mail", "--to", "ada@example.org", "--subject", "big", "--body", "b", "--attach", path)
        let grown = result.maxRSS - baseline.maxRSS
        #expect(grown < 20 * 1024 * 1024, "outbox mail needed \(grown / 1024 / 1024) MB more for a 50 MB attachment")
        let show = cli.ok("show", "2", "--json").stdout
        #expect(show.contains(try fileDigest(path)))
        #expect(try cli.temporary.scalar("SELECT max(length(data)) FROM blob") == 50 << 20)
    }

    @Test func smsFansOutNormalisesAndReportsEncoding() throws {
        let cli = CLI()
        let config = cli.temporary.write("config.json", #"{"sms": {"default_country_code": "+49"}}"#)
        let result = cli.ok("--config", config, "sms", "--to", "+49 151 1234 5678", "--to", "0151 12345679", "--to", "+4915112345678", "--body", "Grüße", stdin: "")
        #expect(result.lines == ["1", "2"]) // the duplicate number is sent once
        #expect(!result.stderr.isEmpty)     // encoding and segments
        let json = cli.ok("history", "--channel", "sms", "--json").jsonLines
        #expect(Set(json.compactMap { ($0["recipients"] as? [String])?.first }) == ["+4915112345678", "+4915112345679"])
        let show = cli.ok("show", "1", "--json").stdout
        #expect(show.contains("\"encoding\""))
    }

    @Test func printValidatesAndStoresJobs() throws {
        let cli = CLI()
        // Real documents (the compose-time check lays them out); names say nothing of the type.
        let pdf = cli.temporary.file("doc.bin")
        #expect(cli.ok("render", "--text", "A page", "--out", pdf).status == 0)
        let pngBase = cli.temporary.file("image")
        let converter = Process()
        converter.executableURL = URL(fileURLWithPath: "/usr/bin/pdftoppm")
        converter.arguments = ["-png", "-r", "10", "-singlefile", pdf, pngBase]
        try converter.run()
        converter.waitUntilExit()
        let png = cli.temporary.file("image.dat")
        try FileManager.default.moveItem(atPath: pngBase + ".png", toPath: png)
        let text = cli.temporary.write("notes.txt", "Some notes\nfor the printer\n")
        #expect(cli.ok("print", pdf, png, "--copies", "2", "--duplex", "long-edge", "--paper", "Letter", "--to", "pdf").lines == ["1"])
        #expect(cli.ok("print", "--text", "Hello", "--header-left", "{title}", "--footer-center", "{page}/{pages}", "--line-spacing", "1.5",
                       "--insets", "36,36,36,36", "--overlay", "DRAFT").lines == ["2"])
        #expect(cli.ok("print", "--text-file", text, "--job-name", "Shopping list").lines == ["3"])
        #expect(cli.ok("print", text).lines == ["4"])
        let show = cli.ok("show", "1", "--json").stdout
        #expect(show.contains("application/pdf") && show.contains("image/png"))
        #expect(cli.ok("history", "--search", "shopping", "--json").jsonLines.compactMap { $0["id"] as? Int } == [3])
    }

    @Test func shareSendsOneFileToSeveralChannelsInOneTransaction() {
        let cli = CLI()
        let text = cli.temporary.write("note.txt", "Meet at noon")
        let result = cli.ok("share", text, "--mail", "ada@example.org", "--sms", "+4915112345678", "--print", "pdf")
        #expect(result.lines == ["1", "2", "3"])
        let channels = cli.ok("history", "--json").jsonLines.compactMap { $0["channel"] as? String }
        #expect(Set(channels) == ["mail", "sms", "print"])
        // A PDF cannot be texted: nothing of the share is stored.
        let pdf = cli.temporary.write("doc.pdf", "%PDF-1.4\n")
        cli.refused(65, ["share", pdf, "--mail", "ada@example.org", "--sms", "+4915112345678"])
        cli.refused(64, ["share", pdf])
    }

    @Test func importStoresEveryLine() {
        let cli = CLI()
        var lines: [String] = []
        for index in 0..<50 {
            lines.append(#"{"channel":"mail","to":["user\#(index)@example.org"],"subject":"bulk \#(index)","body":"hello"}"#)
        }
        lines.append(#"{"channel":"sms","to":"+4915112345678","body":"hi","key":"imp-1"}"#)
        lines.append(#"{"channel":"print","text":"Hello","to":"pdf","copies":2,"draft":true}"#)
        let file = cli.temporary.write("bulk.jsonl", lines.joined(separator: "\n") + "\n\n")
        cli.ok("import", file)
        #expect(cli.counts()["message"] == 52)
        #expect(cli.ok("drafts").stdout.contains("print"))
        // Again from stdin: the keyed line is already there, the rest are new.
        let before = cli.counts()["message"]!
        let again = cli.ok("import", "-", "--json", stdin: lines.joined(separator: "\n"))
        #expect(again.jsonLines.count == 52)
        #expect(again.jsonLines.filter { $0["existing"] as? Bool == true }.count == 1)
        #expect(cli.counts()["message"] == before + 51)
    }

    @Test func aBulkImportIsSearchableAndStatusShowsTheIndexCatchingUp() {
        let cli = CLI()
        let lines = (0..<400).map { index in
            #"{"channel":"mail","to":["user\#(index)@example.org"],"subject":"bulk \#(index)","body":"\#(index == 321 ? "zanzibar" : "routine") text"}"#
        }
        cli.ok("import", cli.temporary.write("bulk.jsonl", lines.joined(separator: "\n")))
        let before = cli.ok("status", "--json", "--no-probe").jsonLines
        #expect(before.first?["search_backlog"] as? Int == 400)
        let found = cli.ok("history", "--search", "zanzibar", "--json").jsonLines
        #expect(found.count == 1 && found.first?["id"] as? Int == 322)
        #expect(cli.ok("status", "--json", "--no-probe").jsonLines.first?["search_backlog"] as? Int == 0)
        #expect(!cli.ok("status", "--no-probe").stdout.contains("search index"))
    }

    /// An import reading a slow pipe holds no lock while it reads: other commands write and
    /// search beside it, and its lines are stored once its input ends.
    @Test func anImportWaitingForInputBlocksNoOne() throws {
        let cli = CLI()
        let importer = Process()
        importer.executableURL = URL(fileURLWithPath: CLIRunner.executable)
        importer.arguments = ["import", "-"]
        importer.environment = cli.runner.environment
        let input = Pipe()
        importer.standardInput = input
        importer.standardOutput = FileHandle.nullDevice
        try importer.run()
        input.fileHandleForWriting.write(Data((#"{"channel":"sms","to":"+4915112345678","body":"from the pipe"}"# + "\n").utf8))
        // While the importer waits for the rest of its input:
        let id = cli.mail(subject: "beside the import")
        #expect(cli.ok("history", "--search", "beside").stdout.contains("beside the import"))
        #expect(cli.ok("sms", "--to", "+4915112345678", "--body", "also beside").status == 0)
        try input.fileHandleForWriting.close()
        importer.waitUntilExit()
        #expect(importer.terminationStatus == 0)
        #expect(cli.counts()["message"] == 3)
        #expect(id == 1)
    }

    @Test func importOfADirectoryIs66() {
        let cli = CLI()
        let result = cli.refused(66, ["import", cli.temporary.directory])
        #expect(result.stderr.contains("directory"), "\(result.stderr)")
    }

    @Test func draftsEditSendDiscard() throws {
        let cli = CLI()
        let draft = cli.mail("--draft", subject: "first draft")
        let other = cli.mail("--draft", subject: "throwaway")
        let queued = cli.mail(subject: "queued one")
        let drafts = cli.ok("drafts").stdout
        #expect(drafts.contains("first draft") && drafts.contains("throwaway") && !drafts.contains("queued one"))

        cli.ok("edit", "\(draft)", "--subject", "second draft", "--cc", "c@example.org")
        let show = cli.ok("show", "\(draft)", "--json").stdout
        #expect(show.contains("second draft") && show.contains("c@example.org") && show.contains("ada@example.org"))
        #expect(cli.ok("history", "--search", "first", "--json").jsonLines.isEmpty)
        cli.refused(65, ["edit", "\(queued)", "--subject", "nope"])
        cli.refused(65, ["edit", "\(draft)", "--to", "broken"])
        cli.refused(64, ["edit", "\(draft)", "--copies", "2"])

        cli.refused(65, ["send", "\(draft)", "\(queued)"])    // all or nothing
        cli.ok("send", "\(draft)")
        #expect(cli.states()[draft] == "queued")
        cli.refused(65, ["discard", "\(other)", "\(queued)"])
        cli.ok("discard", "\(other)")
        #expect(cli.states()[other] == nil)
        #expect(cli.ok("drafts").stdout.contains("throwaway") == false)
    }

    @Test func editSMSAndPrintDrafts() {
        let cli = CLI()
        cli.ok("sms", "--to", "+4915112345678", "--body", "first", "--draft", stdin: "")
        cli.ok("edit", "1", "--body", "second")
        #expect(cli.ok("show", "1", "--json").stdout.contains("second"))
        cli.refused(65, ["edit", "1", "--to", "bogus"])
        cli.ok("print", "--text", "page one", "--draft")
        cli.ok("edit", "2", "--text", "page two", "--to", "pdf")
        #expect(cli.ok("history", "--search", "two", "--json").jsonLines.count == 1)
    }

    @Test func historyFiltersAndListAlias() throws {
        let cli = CLI()
        let a = cli.mail(to: "ada@example.org", subject: "apples")
        let b = cli.mail(to: "grace@example.com", subject: "bananas")
        cli.ok("sms", "--to", "+4915112345678", "--body", "cherries", stdin: "")
        let printID: Int64 = 4
        cli.ok("print", "--text", "dates", "--job-name", "Dates", "--to", "pdf")
        try cli.force(b, "failed")
        let ids = { (args: [String]) -> [Int] in
            cli.runner.run(["history", "--json"] + args).jsonLines.compactMap { $0["id"] as? Int }
        }
        #expect(ids([]) == [4, 3, 2, 1])
        #expect(ids(["--state", "failed"]) == [Int(b)])
        #expect(ids(["--state", "failed,queued"]) == [4, 3, 2, 1])
        #expect(ids(["--channel", "mail"]) == [2, 1])
        #expect(ids(["--channel", "sms", "--channel", "print"]) == [4, 3])
        #expect(ids(["--to", "ada@"]) == [Int(a)])
        #expect(ids(["--to", "+49 151"]) == [3])
        #expect(ids(["--search", "bananas"]) == [2])
        #expect(ids(["--search", "dates"]) == [Int(printID)])
        #expect(ids(["--limit", "2"]) == [4, 3])
        #expect(ids(["--since", "1h"]) == [4, 3, 2, 1])
        #expect(ids(["--until", "2000-01-01"]) == [])
        #expect(ids(["--since", "+1h"]) == [])
        #expect(cli.ok("list", "--json").stdout == cli.ok("history", "--json").stdout)
        let table = cli.ok("history").stdout
        #expect(table.contains("apples") && table.contains("bananas"))
        #expect(cli.ok("history", "--search", "nothing-matches-this").status == 0)
    }

    @Test func showUnknownIdIs65() {
        let cli = CLI()
        cli.ok("init")
        cli.refused(65, ["show", "42"])
    }

    @Test func cancelAndRetry() throws {
        let cli = CLI()
        let queued = cli.mail(subject: "to cancel")
        let draft = cli.mail("--draft", subject: "draft to cancel")
        let failed = cli.mail(subject: "failed one")
        let sent = cli.mail(subject: "sent one")
        try cli.force(failed, "failed")
        try cli.force(sent, "sent")
        try cli.temporary.execute("INSERT INTO attempt (message_id, number, started_at, outcome, code) VALUES (\(failed), 1, 0, 'failed', 'smtp 550')")

        cli.refused(65, ["cancel", "\(queued)", "\(sent)"])
        cli.ok("cancel", "\(queued)", "\(draft)")
        #expect(cli.states()[queued] == "cancelled" && cli.states()[draft] == "cancelled")
        cli.refused(65, ["cancel", "\(queued)"])

        cli.refused(65, ["retry", "\(failed)", "\(sent)"])
        let dry = cli.ok("retry", "--failed", "--dry-run", "--json")
        #expect(dry.jsonLines.compactMap { $0["id"] as? Int } == [Int(failed)])
        #expect(cli.states()[failed] == "failed")
        cli.ok("retry", "--failed")
        #expect(cli.states()[failed] == "queued")
        let show = cli.ok("show", "\(failed)", "--json").stdout
        #expect(show.contains("smtp 550"))  // history kept
        cli.ok("retry", "\(queued)")          // cancelled → queued
        #expect(cli.states()[queued] == "queued")
        cli.refused(64, ["retry", "\(queued)", "--to", "pdf"]) // --to is for print jobs
        cli.refused(64, ["retry", "1", "--failed"])
    }

    @Test func retryRedirectsAPrintJob() throws {
        let cli = CLI()
        cli.ok("print", "--text", "x", "--to", "office")
        try cli.force(1, "failed")
        cli.ok("retry", "1", "--to", "pdf")
        #expect(cli.ok("history", "--json").jsonLines.first?["destination"] as? String == "pdf")
    }

    @Test func statusCountsPerChannelAndState() throws {
        let cli = CLI()
        _ = cli.mail()
        _ = cli.mail("--draft")
        cli.ok("sms", "--to", "+4915112345678", "--body", "x", stdin: "")
        let status = cli.ok("status", "--json", "--no-probe")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["database"] as? String == cli.temporary.path)
        #expect(cli.ok("status", "--no-probe").stdout.contains("mail"))
    }

    @Test func purgeRemovesOldFinishedMessages() throws {
        let cli = CLI()
        let old = cli.mail(subject: "old")
        let recent = cli.mail(subject: "recent")
        let live = cli.mail(subject: "live")
        try cli.force(old, "sent")
        try cli.force(recent, "sent")
        try cli.temporary.execute("UPDATE message SET finished_at = \(Int64(Date().timeIntervalSince1970 * 1000)) WHERE id = \(recent)")
        try cli.temporary.execute("UPDATE message SET updated_at = 1 WHERE id = \(live)")
        let dry = cli.ok("purge", "--older-than", "30d", "--dry-run", "--json")
        #expect(dry.jsonLines.compactMap { $0["id"] as? Int } == [Int(old)])
        #expect(cli.states().count == 3)
        cli.ok("purge", "--older-than", "30d")
        #expect(cli.states().keys.sorted() == [recent, live])
        cli.ok("purge", "--older-than", "2000-01-01")
        #expect(cli.states().count == 2)
    }
}
