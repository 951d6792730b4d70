// swift-tools-version:6.0
// Layers, arrows pointing down:
//   C wrappers (CSQLite, CNettle, CCurl, CCups, CPangoCairo)
//   → OutboxSQLite (connection, statements, blobs)  → OutboxModel (pure values, config, validation)
//   → OutboxStore (schema, migrations, queries)     → OutboxEngine (sink protocol, worker)
//   → OutboxCLI (commands; links no sink library)    → outbox (front end)
//   → sinks (OutboxMail, OutboxSMS, OutboxPrint)    → OutboxDelivery → outbox-delivery (worker, printing)
import PackageDescription

let package = Package(
    name: "Outbox",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "outbox", targets: ["outbox"]),
        .executable(name: "outbox-delivery", targets: ["outbox-delivery"]),
    ],
    targets: [
        // MARK: - C libraries
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CNettle", pkgConfig: "nettle", providers: [.apt(["nettle-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Debian 12's libcups2-dev ships no cups.pc: the module map links -lcups itself.
        .systemLibrary(name: "CCups", providers: [.apt(["libcups2-dev"])]),
        .systemLibrary(name: "CPangoCairo", pkgConfig: "pangocairo poppler-glib",
                       providers: [.apt(["libpango1.0-dev", "libcairo2-dev", "libpoppler-glib-dev"])]),

        // MARK: - Build-time embedding of Migrations/*.sql
        .executableTarget(name: "MigrationsEmbedder"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["MigrationsEmbedder"]),

        // MARK: - Layers
        .target(name: "OutboxSQLite", dependencies: ["CSQLite"]),
        .target(name: "OutboxModel"),
        .target(name: "OutboxStore", dependencies: ["OutboxSQLite", "OutboxModel", "CNettle"],
                plugins: ["EmbedMigrations"]),
        .target(name: "OutboxEngine", dependencies: ["OutboxStore", "OutboxModel"]),
        .target(name: "OutboxMail", dependencies: ["OutboxEngine", "CCurl"]),
        .target(name: "OutboxSMS", dependencies: ["OutboxEngine", "CCurl"]),
        .target(name: "OutboxPrint", dependencies: ["OutboxEngine", "CCups", "CPangoCairo"]),
        // The front end links no sink library, so it starts in a few milliseconds; commands that
        // need the sinks hand over to `outbox-delivery` (see DeliveryProgram).
        .target(name: "OutboxCLI", dependencies: ["OutboxEngine"]),
        .target(name: "OutboxDelivery", dependencies: ["OutboxCLI", "OutboxMail", "OutboxSMS", "OutboxPrint"]),
        // Linked statically (Swift runtime, Foundation, SQLite, libc): no dynamic loader work at
        // start-up, which took two thirds of a short command's time (`show`: 10 ms → 3 ms).
        // FoundationEssentials' own C parts are not autolinked in a static link: named here.
        .executableTarget(name: "outbox", dependencies: ["OutboxCLI"],
                          linkerSettings: [.unsafeFlags(["-static-executable"]), .linkedLibrary("_FoundationCShims"), .linkedLibrary("_FoundationCollections")]),
        .executableTarget(name: "outbox-delivery", dependencies: ["OutboxDelivery"]),

        // MARK: - Benchmarks (run by Benchmarks/*.sh)
        .executableTarget(name: "outbox-enqueue-benchmark", dependencies: ["OutboxStore"], path: "Benchmarks/EnqueueBenchmark"),

        // MARK: - Tests
        .testTarget(name: "OutboxStoreTests", dependencies: ["OutboxStore"]),
        .testTarget(name: "OutboxModelTests", dependencies: ["OutboxModel"]),
        .testTarget(name: "OutboxEngineTests", dependencies: ["OutboxEngine", "OutboxTestSupport"]),
        .testTarget(name: "OutboxMailTests", dependencies: ["OutboxMail", "OutboxTestSupport"]),
        .testTarget(name: "OutboxSMSTests", dependencies: ["OutboxSMS", "OutboxTestSupport"]),
        .testTarget(name: "OutboxPrintTests", dependencies: ["OutboxPrint", "OutboxTestSupport"]),
        .testTarget(name: "OutboxCLITests", dependencies: ["OutboxCLI", "OutboxTestSupport"]),
        .target(name: "OutboxTestSupport", dependencies: ["OutboxStore"], path: "Tests/OutboxTestSupport"),
    ]
)
