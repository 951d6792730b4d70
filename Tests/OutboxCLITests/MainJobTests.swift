import Foundation
import OutboxTestSupport
import Testing

/// The README's main job: a mail, an SMS and the seeds' print job, drained by the worker on the
/// embedded defaults (no config, no server), then the history and the files it wrote.
@Suite("Main job on the embedded defaults")
struct MainJobTests {
    @Test func mailSMSAndTheSeedsPrintJobDrainToTheDefaultSinks() throws {
        let cli = CLI("main-job")
        let agenda = cli.temporary.write("agenda.txt", "Agenda\n1. Print run\n2. Mail merge\n")
        let chords = cli.temporary.write("chords.html", "<h1>Chords</h1><p>G C <b>D</b></p><ul><li>Capo 2</li></ul>")
        #expect(cli.ok("mail", "--to", "Ada <ada@example.org>", "--subject", "Agenda — 月曜日", "--body", "Hello",
                       "--attach", agenda).lines == ["1"])
        #expect(cli.ok("sms", "--to", "+4915112345678", "--body", "See you Monday").lines == ["2"])
        // The seeds' page renderer: author left and title right in the header, not on page 1,
        // page numbers in the footer, an overlay, and a second formatter from page 2.
        #expect(cli.ok("print", "--text-file", agenda, "--append", chords + ";page=2", "--title", "Agenda", "--author", "Ada",
                       "--header-left", "{author}", "--header-right", "{title}", "--no-header-first-page",
                       "--footer-center", "page {page} of {pages}", "--overlay", "DRAFT", "--to", "pdf").lines == ["3"])

        let drained = cli.ok("worker", "--once")
        #expect(drained.stdout.contains("3 sent"), "\(drained)")
        let states = cli.ok("history", "--json").jsonLines.compactMap { $0["state"] as? String }
        #expect(states == ["sent", "sent", "sent"])

        let out = cli.runner.home + "/.local/share/outbox/out"
        let mail = try FileManager.default.contentsOfDirectory(atPath: out + "/mail").filter { $0.hasSuffix(".eml") }
        let sms = try FileManager.default.contentsOfDirectory(atPath: out + "/sms").filter { $0.hasSuffix(".json") }
        let pdf = try FileManager.default.contentsOfDirectory(atPath: out + "/pdf").filter { $0.hasSuffix(".pdf") }
        #expect(mail.count == 1 && sms.count == 1 && pdf == ["3-agenda.txt.pdf"])
        let eml = try String(contentsOfFile: out + "/mail/" + mail[0], encoding: .utf8)
        #expect(eml.contains("Subject: =?UTF-8?"))
        #expect(eml.contains("filename=\"agenda.txt\""))

        // The PDF: two pages, the second formatter on page 2, the header only there.
        let text = String(decoding: try SMTPFixtures.run("/usr/bin/pdftotext", ["-layout", out + "/pdf/" + pdf[0], "-"]).output, as: UTF8.self)
        let pages = text.split(separator: "\u{0C}", omittingEmptySubsequences: false).map(String.init)
        #expect(pages.count >= 2)
        #expect(pages[0].contains("Agenda") && !pages[0].contains("Ada") && pages[0].contains("page 1 of 2"))
        #expect(pages[1].contains("Chords") && pages[1].contains("Ada") && pages[1].contains("page 2 of 2"))
        let show = cli.ok("show", "3", "--json").stdout
        #expect(show.contains("\"pages\":2"))
    }
}
