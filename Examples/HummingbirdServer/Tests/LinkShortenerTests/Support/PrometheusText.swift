/// The samples of a Prometheus text exposition, by series: `name{label="value",…}` as written,
/// to its value. Comment lines (`# TYPE`, `# HELP`) are kept apart, as written.
struct PrometheusText {
    let samples: [String: Double]
    let comments: [String]

    init(_ text: String) {
        var samples: [String: Double] = [:]
        var comments: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("#") {
                comments.append(String(line))
            } else if let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) {
                samples[String(line[..<space])] = value
            }
        }
        self.samples = samples
        self.comments = comments
    }

    /// The count of the construction timer of `key` in `scope`: how many constructions it
    /// recorded; `0` before the first.
    func constructions(of key: String, scope: String) -> Double {
        samples[#"objection_construction_duration_count{key="\#(key)",scope="\#(scope)"}"#] ?? 0
    }
}
