import GRPCCore
import GRPCNIOTransportHTTP2
import NotesAPI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// A load generator for the notes server: N concurrent callers, each calling one method again and
// again, on one HTTP/2 connection, until the duration is up; then one line with the RPCs completed
// and their rate, which loadtest.sh reads:
//
//   grpc-load get --id 1 --connections 64 --duration 15
//   method=get rpcs=123456 failed=0 seconds=15.003 rps=8228.6
//
// Methods: get (GetNote, scoped) and plain-get (its hand-wired twin) of the note --id; add (AddNote);
// list (ListNotes, the first 10 notes). A failed RPC is counted, the first one's error printed, and
// the exit status is then 1.
let usage = """
    usage: grpc-load get|plain-get|add|list [--id ID] [--host HOST] [--port PORT]
                     [--connections CALLERS] [--duration SECONDS]
    """

struct UsageError: Error {}

/// Writes `message` and a line break to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// What the command line asks for.
struct LoadSettings: Sendable {
    var method = ""
    var host = "127.0.0.1"
    var port = 50_051
    var callers = 64
    var duration = Duration.seconds(15)
    var id: Int64 = 1

    init(_ arguments: [String]) throws {
        guard let method = arguments.first, ["get", "plain-get", "add", "list"].contains(method) else {
            throw UsageError()
        }
        self.method = method
        var options = arguments.dropFirst()
        while let option = options.first {
            guard options.count >= 2 else { throw UsageError() }
            let value = options[options.startIndex + 1]
            switch option {
            case "--host": host = value
            case "--port": port = try Self.number(value, in: 1...65_535)
            case "--connections": callers = try Self.number(value, in: 1...10_000)
            // `15` or `15s`, as wrk takes it.
            case "--duration": duration = .seconds(try Self.number(String(value.trimmingSuffix("s")), in: 1...86_400))
            case "--id": id = Int64(try Self.number(value, in: 1...Int.max))
            default: throw UsageError()
            }
            options.removeFirst(2)
        }
    }

    static func number(_ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else { throw UsageError() }
        return value
    }
}

extension String {
    /// The string without `suffix` at its end, if it is there.
    func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}

/// What the callers did.
struct Tally: Sendable {
    var completed = 0
    var failed = 0
    var firstError: String?

    mutating func add(_ other: Tally) {
        completed += other.completed
        failed += other.failed
        firstError = firstError ?? other.firstError
    }
}

/// One RPC of the method `settings` names.
func callOnce(_ notes: NotesClient<HTTP2ClientTransport.Posix>, _ settings: LoadSettings) async throws {
    switch settings.method {
    case "get": _ = try await notes.getNote(NoteQuery(id: settings.id))
    case "plain-get": _ = try await notes.plainGetNote(NoteQuery(id: settings.id))
    case "add": _ = try await notes.addNote(NewNote(text: "grpc-load"))
    default: _ = try await notes.listNotes(NoteListing(limit: 10))
    }
}

/// One caller: RPCs one after the other until `deadline`.
func caller(
    _ notes: NotesClient<HTTP2ClientTransport.Posix>, _ settings: LoadSettings, until deadline: ContinuousClock.Instant
) async -> Tally {
    var tally = Tally()
    while ContinuousClock.now < deadline {
        do {
            try await callOnce(notes, settings)
            tally.completed += 1
        } catch {
            tally.failed += 1
            tally.firstError = tally.firstError ?? "\(error)"
        }
    }
    return tally
}

do {
    let settings = try LoadSettings(Array(CommandLine.arguments.dropFirst()))
    let (tally, elapsed) = try await withGRPCClient(
        transport: .http2NIOPosix(
            target: .ipv4(address: settings.host, port: settings.port), transportSecurity: .plaintext)
    ) { client in
        let notes = NotesClient(wrapping: client)
        let start = ContinuousClock.now
        let tally = await withTaskGroup(of: Tally.self) { group in
            for _ in 0..<settings.callers {
                group.addTask { await caller(notes, settings, until: start + settings.duration) }
            }
            var total = Tally()
            for await tally in group { total.add(tally) }
            return total
        }
        return (tally, ContinuousClock.now - start)
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = Double(tally.completed) / seconds
    print(
        "method=\(settings.method) rpcs=\(tally.completed) failed=\(tally.failed) "
            + "seconds=\((seconds * 1000).rounded() / 1000) rps=\((rate * 10).rounded() / 10)")
    if let firstError = tally.firstError {
        printError("first error: \(firstError)")
        exit(EXIT_FAILURE)
    }
} catch is UsageError {
    printError(usage)
    exit(2)
} catch {
    printError("error: \(error)")
    exit(EXIT_FAILURE)
}
