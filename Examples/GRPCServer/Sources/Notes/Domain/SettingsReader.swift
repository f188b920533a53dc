/// Reads settings from environment variables: absent ones are `nil`, malformed ones throw
/// ``SettingsError`` naming the variable.
struct SettingsReader {
    let environment: [String: String]

    /// The variable's value, unless it is unset or empty.
    func string(_ key: String) -> String? {
        environment[key].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The variable as a port, 0 to 65535.
    func port(_ key: String) throws -> Int? {
        try string(key).map { try Self.port($0, key: key) }
    }

    /// The variable as a number above 0.
    func positive(_ key: String) throws -> Int? {
        try string(key).map { text in
            guard let value = Int(text), value > 0 else { throw SettingsError(key: key, expected: "a number above 0") }
            return value
        }
    }

    /// `text` as a port, 0 to 65535.
    static func port(_ text: String, key: String) throws -> Int {
        guard let value = Int(text), (0...65_535).contains(value) else {
            throw SettingsError(key: key, expected: "a port, 0 to 65535")
        }
        return value
    }
}
