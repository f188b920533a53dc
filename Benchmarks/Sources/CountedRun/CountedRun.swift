import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `main` of a program whose instructions `.ci/instruction-counts` counts: it reads
/// `<path> <N>` from the command line and runs the path N times, while the main thread waits on a
/// semaphore.
///
/// Not an async `main`: that parks the main thread in libdispatch's `sigsuspend` with a signal mask
/// in read-only memory, which valgrind 3.19 (Debian 12) writes to, and crashes.
///
/// ```swift
/// runCounted(program: "objection-instructions", usage: HotPath.usage, path: HotPath.init(name:)) {
///     try await $0.run(iterations: $1)
/// }
/// ```
///
/// - Parameters:
///   - program: The program's name, for its messages.
///   - usage: The paths it knows, for the usage line.
///   - path: The path a name names, or `nil`.
///   - run: Runs a path a number of times.
public func runCounted<Path: Sendable>(
    program: String,
    usage: String,
    path: (String) -> Path?,
    run: @escaping @Sendable (Path, Int) async throws -> Void
) -> Never {
    let arguments = CommandLine.arguments
    guard arguments.count == 3, let named = path(arguments[1]), let iterations = Int(arguments[2]),
        iterations >= 0
    else {
        fail("usage: \(program) <\(usage)> <iterations>", status: 2)
    }
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do {
            try await run(named, iterations)
        } catch {
            fail("\(program): \(error)", status: 1)
        }
        done.signal()
    }
    done.wait()
    exit(0)
}

/// Writes `message` to standard error and exits with `status`.
public func fail(_ message: String, status: Int32) -> Never {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
}
