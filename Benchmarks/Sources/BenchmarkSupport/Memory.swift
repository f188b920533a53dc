#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resident memory of this process, for the memory-growth case.
public enum Memory {
    /// The resident set size in bytes (Linux: current, from `/proc/self/statm`; elsewhere: the
    /// peak, from `getrusage`).
    public static func residentBytes() -> Int {
        #if os(Linux)
            let descriptor = open("/proc/self/statm", O_RDONLY)
            guard descriptor >= 0 else { return 0 }
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return 0 }
            // "size resident shared text lib data dt", in pages.
            let fields = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: " ")
            guard fields.count > 1, let resident = Int(fields[1]) else { return 0 }
            return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            var usage = rusage()
            getrusage(RUSAGE_SELF, &usage)
            return Int(usage.ru_maxrss)
        #endif
    }

    /// How much resident memory `body` leaves behind, in bytes (negative: it shrank).
    public static func growth(_ body: () async throws -> Void) async rethrows -> Int {
        let before = residentBytes()
        try await body()
        return residentBytes() - before
    }
}
