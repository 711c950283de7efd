CREATE TABLE bookmarks (
    user_id TEXT NOT NULL,
    url     TEXT NOT NULL,
    PRIMARY KEY (user_id, url)
);
