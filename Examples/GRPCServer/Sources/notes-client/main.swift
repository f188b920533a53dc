import GRPCCore
import GRPCNIOTransportHTTP2
import NotesAPI

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Calls the notes server once and prints what it answered: each note as a line of JSON on standard
// output, the response's `x-request-id` on standard error.
//
//   notes-client [--host 127.0.0.1] [--port 50051] [--request-id ID] add TEXT
//   notes-client … get ID | plain-get ID | list [AFTER_ID [LIMIT]]
let usage = """
    usage: notes-client [--host HOST] [--port PORT] [--request-id ID] COMMAND
      add TEXT                  stores a note (AddNote)
      get ID                    one note (GetNote, in a scope and a transaction)
      plain-get ID              the same, served by the hand-wired twin (PlainNotes/GetNote)
      list [AFTER_ID [LIMIT]]   the notes, streamed one message per note (ListNotes)
    """

struct UsageError: Error {}

/// Writes `message` and a line break to standard error.
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

/// What the command line asks for.
struct Invocation {
    var host = "127.0.0.1"
    var port = 50_051
    var metadata: Metadata = [:]
    /// The command and its operands.
    var command: [String] = []

    init(_ arguments: [String]) throws {
        var arguments = arguments
        while let option = arguments.first, option.hasPrefix("--") {
            guard arguments.count >= 2 else { throw UsageError() }
            let value = arguments[1]
            switch option {
            case "--host": host = value
            case "--port":
                guard let number = Int(value), (1...65_535).contains(number) else { throw UsageError() }
                port = number
            case "--request-id": metadata.addString(value, forKey: "x-request-id")
            default: throw UsageError()
            }
            arguments.removeFirst(2)
        }
        command = arguments
    }
}

/// The response's message, once its `x-request-id` is written to standard error.
@Sendable func answered(_ response: ClientResponse<Note>) throws -> Note {
    reportRequestID(response.metadata)
    return try response.message
}

/// Writes the response's request id to standard error.
@Sendable func reportRequestID(_ metadata: Metadata) {
    let id = metadata[stringValues: "x-request-id"].first { _ in true } ?? "none"
    printError("x-request-id: \(id)")
}

/// One note as a line of JSON, its keys in order.
@Sendable func printJSON(_ note: Note) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try encoder.encode(note), as: UTF8.self))
}

/// Makes the call `invocation` names.
func call(_ notes: NotesClient<HTTP2ClientTransport.Posix>, _ invocation: Invocation) async throws {
    let arguments = invocation.command, metadata = invocation.metadata
    var options = CallOptions.defaults
    // Not for ever: a server that is not up fails the call, which loadtest.sh waits on.
    options.timeout = .seconds(5)
    switch (arguments.first, arguments.count) {
    case ("add", 2):
        try printJSON(
            try await notes.addNote(
                NewNote(text: arguments[1]), metadata: metadata, options: options, onResponse: answered))
    case ("get", 2):
        guard let id = Int64(arguments[1]) else { throw UsageError() }
        try printJSON(
            try await notes.getNote(NoteQuery(id: id), metadata: metadata, options: options, onResponse: answered))
    case ("plain-get", 2):
        guard let id = Int64(arguments[1]) else { throw UsageError() }
        try printJSON(
            try await notes.plainGetNote(NoteQuery(id: id), metadata: metadata, options: options, onResponse: answered))
    case ("list", 1...3):
        let numbers = arguments.dropFirst().compactMap { Int($0) }
        guard numbers.count == arguments.count - 1 else { throw UsageError() }
        let listing = NoteListing(afterID: Int64(numbers.first ?? 0), limit: numbers.dropFirst().first ?? 100)
        try await notes.listNotes(listing, metadata: metadata, options: options) { response in
            reportRequestID(response.metadata)
            for try await note in response.messages { try printJSON(note) }
        }
    default:
        throw UsageError()
    }
}

do {
    let invocation = try Invocation(Array(CommandLine.arguments.dropFirst()))
    try await withGRPCClient(
        transport: .http2NIOPosix(
            target: .ipv4(address: invocation.host, port: invocation.port), transportSecurity: .plaintext)
    ) { client in
        try await call(NotesClient(wrapping: client), invocation)
    }
} catch is UsageError {
    printError(usage)
    exit(2)
} catch let error as RPCError {
    printError("error: \(error.code): \(error.message)")
    exit(EXIT_FAILURE)
} catch {
    printError("error: \(error)")
    exit(EXIT_FAILURE)
}
