import Configuration
import Foundation
import Objection
import ObjectionConfiguration
import SystemPackage
import Testing

/// A value present under a key but not of the type asked for is malformed — never the default,
/// never "missing", never shown — whichever provider holds it: the environment's text, or the
/// typed values of memory, JSON and YAML.
@Suite("Settings of the wrong type, from every provider")
struct ProviderTypeTests {
    /// The providers, each holding `http.port` as a Boolean (`true`) and `http.host` as a number
    /// (`8080`); the environment holds both as text, and JSON the port as the string `"true"`:
    /// swift-configuration reads a JSON Boolean as the number 1 and a number as a Boolean, as
    /// `JSONSerialization` does, so there only a string is of another type than a number.
    enum Source: String, CaseIterable, Sendable {
        case environment, inMemory, json, yaml

        func reader() async throws -> ConfigReader {
            switch self {
            case .environment:
                return ConfigReader(
                    provider: EnvironmentVariablesProvider(environmentVariables: [
                        "HTTP_PORT": "true", "HTTP_HOST": "8080",
                    ]))
            case .inMemory:
                return ConfigReader(provider: InMemoryProvider(values: ["http.port": true, "http.host": 8080]))
            case .json:
                let path = try Self.write(#"{"http": {"port": "true", "host": 8080}}"#, extension: "json")
                return ConfigReader(provider: try await FileProvider<JSONSnapshot>(filePath: path))
            case .yaml:
                let path = try Self.write("http:\n  port: true\n  host: 8080\n", extension: "yaml")
                return ConfigReader(provider: try await FileProvider<YAMLSnapshot>(filePath: path))
            }
        }

        private static func write(_ text: String, extension name: String) throws -> FilePath {
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("objection-\(UUID().uuidString).\(name)")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return FilePath(url.path)
        }
    }

    struct Port: Sendable { let value: Int }
    struct Host: Sendable { let value: String }
    struct Verbose: Sendable { let value: Bool }

    private func injector(_ source: Source) async throws -> InjectorActor {
        try await InjectorActor(modules: [
            ConfigurationModule(try await source.reader()),
            TestModule { binder in
                binder.bind(Port.self).to { r in Port(value: try await r.setting("http.port", default: 8080)) }
                binder.bind(Host.self).to { r in Host(value: try await r.setting("http.host")) }
                binder.bind(Verbose.self).to { r in Verbose(value: try await r.setting("http.verbose", default: true)) }
            },
        ])
    }

    @Test("a Boolean read as an Int is invalid, never the default", arguments: Source.allCases)
    func wrongTypeWithDefault(_ source: Source) async throws {
        let injector = try await injector(source)
        let error = await #expect(throws: InjectionError.self) { try await injector.get(Port.self) }
        #expect(error?.code == .invalidSetting)
        #expect(error?.message == "Configuration setting 'http.port' is not a valid Int (required by Port)")
        #expect(!String(describing: error).contains("true"))
    }

    @Test("a value present as another type is reported invalid, not missing", arguments: Source.allCases)
    func presentAsAnotherType(_ source: Source) async throws {
        let injector = try await injector(source)
        // The environment's values and YAML's scalars are text, which reads as a String; the
        // number of memory and JSON does not.
        guard source != .environment, source != .yaml else {
            #expect(try await injector.get(Host.self).value == "8080")
            let port = await #expect(throws: InjectionError.self) { try await injector.get(Port.self) }
            #expect(port?.message.hasPrefix("Configuration setting 'http.port' is not a valid Int") == true)
            return
        }
        let error = await #expect(throws: InjectionError.self) { try await injector.get(Host.self) }
        #expect(error?.code == .invalidSetting)
        #expect(error?.message == "Configuration setting 'http.host' is not a valid String (required by Host)")
        #expect(!String(describing: error).contains("8080"))
    }

    @Test("a key no provider holds still takes the default", arguments: Source.allCases)
    func missingTakesTheDefault(_ source: Source) async throws {
        let injector = try await injector(source)
        #expect(try await injector.get(Verbose.self).value)
    }
}

/// A module built from a closure.
struct TestModule: Module {
    let body: @Sendable (Binder) -> Void
    init(_ body: @escaping @Sendable (Binder) -> Void) { self.body = body }
    func configure(_ binder: Binder) { body(binder) }
}
