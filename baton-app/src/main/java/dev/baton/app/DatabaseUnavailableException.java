package dev.baton.app;

/** The database the configuration names cannot be opened: not running, unreachable, or the URL is wrong. */
public final class DatabaseUnavailableException extends RuntimeException {

    private DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The failure, saying which database (its password masked) and what to check. */
    static DatabaseUnavailableException of(String url, RuntimeException cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String why = root.getMessage() == null
                ? root.toString()
                : root.getMessage().lines().findFirst().orElse("");
        String masked = url.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("(//[^:/@]+:)[^@]*@", "$1***@");
        return new DatabaseUnavailableException(
                "cannot open the database " + masked + ": " + why.strip()
                        + " (is it running? check BATON_DB_URL or database.url in baton.yaml)",
                cause);
    }
}
