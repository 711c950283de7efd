package dev.baton.example.embedded;

import dev.baton.core.auth.Principal;
import dev.baton.core.domain.DomainException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's own domain service, which knows nothing of Baton's runtime: each user's books, kept in memory.
 * Every method acts for the caller it is given; another user's books, or the same user id in another tenant, are
 * out of reach.
 */
public final class ReadingList {

    /** A book on someone's list. */
    public record Book(String id, String title, boolean read) {}

    /** Why the reading list refused; its message is safe to show the user (and the model). */
    public static final class ReadingListException extends DomainException {
        ReadingListException(Kind kind, String message) {
            super(kind, message);
        }

        static ReadingListException noSuchBook(String bookId) {
            return new ReadingListException(Kind.NOT_FOUND, "no book with id " + echoedId(bookId) + " on your list");
        }
    }

    private record Owner(String tenantId, String userId) {
        static Owner of(Principal caller) {
            return new Owner(caller.tenantId(), caller.userId());
        }
    }

    private final Map<Owner, List<Book>> books = new ConcurrentHashMap<>();

    /** Adds a book, unread, to the caller's list. */
    public Book add(Principal caller, String title) {
        String trimmed = title == null ? "" : title.strip();
        if (trimmed.isEmpty() || trimmed.length() > 200)
            throw new ReadingListException(DomainException.Kind.INVALID_ARGUMENT, "title must be 1-200 characters");
        Book book = new Book(UUID.randomUUID().toString(), trimmed, false);
        books.merge(Owner.of(caller), List.of(book), ReadingList::concat);
        return book;
    }

    /** The caller's books, oldest first. */
    public List<Book> list(Principal caller) {
        return books.getOrDefault(Owner.of(caller), List.of());
    }

    /** Marks one of the caller's books read. */
    public Book markRead(Principal caller, String bookId) {
        Book read = list(caller).stream()
                .filter(b -> b.id().equals(bookId))
                .findFirst()
                .map(b -> new Book(b.id(), b.title(), true))
                .orElseThrow(() -> ReadingListException.noSuchBook(bookId));
        books.computeIfPresent(
                Owner.of(caller),
                (owner, list) ->
                        list.stream().map(b -> b.id().equals(bookId) ? read : b).toList());
        return read;
    }

    private static List<Book> concat(List<Book> list, List<Book> more) {
        List<Book> all = new ArrayList<>(list);
        all.addAll(more);
        return List.copyOf(all);
    }
}
