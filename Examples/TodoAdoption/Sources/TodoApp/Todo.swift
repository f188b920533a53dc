import Hummingbird

/// One to-do.
public struct Todo: Codable, Equatable, Sendable, ResponseEncodable {
    public var id: Int
    public var title: String
    public var done: Bool

    public init(id: Int, title: String, done: Bool = false) {
        self.id = id
        self.title = title
        self.done = done
    }
}
