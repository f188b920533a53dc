import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Runs one hot path a given number of times, for `.ci/instruction-counts`, which counts the
// instructions of a run with N iterations and of one with 2N under callgrind: their difference,
// divided by N, is the cost of one operation, without the start-up and set-up both runs share.
//
//   objection-instructions singleton-hit 20000
//
// The main thread blocks on a semaphore instead of running an async main: an async main parks
// the main thread in libdispatch's `sigsuspend` on a mask in read-only memory, which valgrind 3.19
// (Debian 12) writes to, and crashes.

let arguments = CommandLine.arguments
guard arguments.count == 3, let path = HotPath(name: arguments[1]), let iterations = Int(arguments[2]),
    iterations >= 0
else {
    fail("usage: objection-instructions <\(HotPath.usage)> <iterations>", status: 2)
}
let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        try await path.run(iterations: iterations)
    } catch {
        fail("objection-instructions: \(error)", status: 1)
    }
    done.signal()
}
done.wait()

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
}
