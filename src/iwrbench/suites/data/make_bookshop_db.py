"""Write ``bookshop.db`` (SQLite) into the folder given as the first argument.

Used by the third-party Datasette recipes (``tp-datasette-*.yaml``): a small second-hand
bookshop catalogue of classic, public-domain books. The titles, authors and first-publication
years are public facts; the shop data (price, rating, stock, format, shelf) is made up and
derived arithmetically from the row number, so every run writes the same rows.

It also writes ``templates/_footer.html``, served with ``--template-dir``: Datasette's own footer
prints how long the page's queries took ("Queries took 26.3ms"), the server's clock, so two
loadings of the same page would differ; this footer says only what it is powered by.

    python make_bookshop_db.py OUT_DIR
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

# (title, author, year, genre, pages)
BOOKS = [
    ("Pride and Prejudice", "Jane Austen", 1813, "Romance", 432),
    ("Emma", "Jane Austen", 1815, "Romance", 474),
    ("Persuasion", "Jane Austen", 1817, "Romance", 249),
    ("Sense and Sensibility", "Jane Austen", 1811, "Romance", 409),
    ("Jane Eyre", "Charlotte Brontë", 1847, "Gothic", 507),
    ("Wuthering Heights", "Emily Brontë", 1847, "Gothic", 416),
    ("Frankenstein", "Mary Shelley", 1818, "Science fiction", 280),
    ("Dracula", "Bram Stoker", 1897, "Gothic", 418),
    ("The Picture of Dorian Gray", "Oscar Wilde", 1890, "Gothic", 254),
    ("Great Expectations", "Charles Dickens", 1861, "Literary fiction", 544),
    ("Bleak House", "Charles Dickens", 1853, "Literary fiction", 1017),
    ("Oliver Twist", "Charles Dickens", 1838, "Literary fiction", 608),
    ("A Tale of Two Cities", "Charles Dickens", 1859, "Historical", 489),
    ("Middlemarch", "George Eliot", 1871, "Literary fiction", 880),
    ("Silas Marner", "George Eliot", 1861, "Literary fiction", 240),
    ("Moby-Dick", "Herman Melville", 1851, "Adventure", 635),
    ("The Scarlet Letter", "Nathaniel Hawthorne", 1850, "Historical", 272),
    ("Little Women", "Louisa May Alcott", 1868, "Literary fiction", 759),
    ("Adventures of Huckleberry Finn", "Mark Twain", 1884, "Adventure", 366),
    ("The Adventures of Tom Sawyer", "Mark Twain", 1876, "Adventure", 274),
    ("The Time Machine", "H. G. Wells", 1895, "Science fiction", 118),
    ("The War of the Worlds", "H. G. Wells", 1898, "Science fiction", 287),
    ("The Invisible Man", "H. G. Wells", 1897, "Science fiction", 192),
    ("The Island of Doctor Moreau", "H. G. Wells", 1896, "Science fiction", 153),
    ("Twenty Thousand Leagues Under the Seas", "Jules Verne", 1870, "Science fiction", 426),
    ("Journey to the Centre of the Earth", "Jules Verne", 1864, "Science fiction", 240),
    ("Around the World in Eighty Days", "Jules Verne", 1872, "Adventure", 256),
    ("The Count of Monte Cristo", "Alexandre Dumas", 1844, "Adventure", 1276),
    ("The Three Musketeers", "Alexandre Dumas", 1844, "Historical", 700),
    ("Les Misérables", "Victor Hugo", 1862, "Historical", 1463),
    ("The Hunchback of Notre-Dame", "Victor Hugo", 1831, "Historical", 512),
    ("Madame Bovary", "Gustave Flaubert", 1857, "Literary fiction", 329),
    ("Crime and Punishment", "Fyodor Dostoevsky", 1866, "Literary fiction", 671),
    ("The Brothers Karamazov", "Fyodor Dostoevsky", 1880, "Literary fiction", 796),
    ("Anna Karenina", "Leo Tolstoy", 1878, "Romance", 864),
    ("War and Peace", "Leo Tolstoy", 1869, "Historical", 1225),
    ("The Hound of the Baskervilles", "Arthur Conan Doyle", 1902, "Mystery", 256),
    ("A Study in Scarlet", "Arthur Conan Doyle", 1887, "Mystery", 108),
    ("The Sign of the Four", "Arthur Conan Doyle", 1890, "Mystery", 122),
    ("The Moonstone", "Wilkie Collins", 1868, "Mystery", 528),
    ("The Woman in White", "Wilkie Collins", 1859, "Mystery", 720),
    ("Treasure Island", "Robert Louis Stevenson", 1883, "Adventure", 292),
    ("Strange Case of Dr Jekyll and Mr Hyde", "Robert Louis Stevenson", 1886, "Gothic", 141),
    ("Kidnapped", "Robert Louis Stevenson", 1886, "Adventure", 288),
    ("Heart of Darkness", "Joseph Conrad", 1899, "Literary fiction", 96),
    ("The Call of the Wild", "Jack London", 1903, "Adventure", 172),
    ("The Jungle Book", "Rudyard Kipling", 1894, "Children", 277),
    ("Alice's Adventures in Wonderland", "Lewis Carroll", 1865, "Children", 192),
    ("Through the Looking-Glass", "Lewis Carroll", 1871, "Children", 208),
    ("The Wonderful Wizard of Oz", "L. Frank Baum", 1900, "Children", 259),
    ("Peter and Wendy", "J. M. Barrie", 1911, "Children", 267),
    ("The Secret Garden", "Frances Hodgson Burnett", 1911, "Children", 331),
    ("Anne of Green Gables", "L. M. Montgomery", 1908, "Children", 429),
    ("The Age of Innocence", "Edith Wharton", 1920, "Romance", 365),
    ("The Mysterious Affair at Styles", "Agatha Christie", 1920, "Mystery", 296),
    ("The Thirty-Nine Steps", "John Buchan", 1915, "Mystery", 138),
]

# (name, born, died, country)
AUTHORS = [
    ("Jane Austen", 1775, 1817, "United Kingdom"), ("Charlotte Brontë", 1816, 1855, "United Kingdom"),
    ("Emily Brontë", 1818, 1848, "United Kingdom"), ("Mary Shelley", 1797, 1851, "United Kingdom"),
    ("Bram Stoker", 1847, 1912, "Ireland"), ("Oscar Wilde", 1854, 1900, "Ireland"),
    ("Charles Dickens", 1812, 1870, "United Kingdom"), ("George Eliot", 1819, 1880, "United Kingdom"),
    ("Herman Melville", 1819, 1891, "United States"), ("Nathaniel Hawthorne", 1804, 1864, "United States"),
    ("Louisa May Alcott", 1832, 1888, "United States"), ("Mark Twain", 1835, 1910, "United States"),
    ("H. G. Wells", 1866, 1946, "United Kingdom"), ("Jules Verne", 1828, 1905, "France"),
    ("Alexandre Dumas", 1802, 1870, "France"), ("Victor Hugo", 1802, 1885, "France"),
    ("Gustave Flaubert", 1821, 1880, "France"), ("Fyodor Dostoevsky", 1821, 1881, "Russia"),
    ("Leo Tolstoy", 1828, 1910, "Russia"), ("Arthur Conan Doyle", 1859, 1930, "United Kingdom"),
    ("Wilkie Collins", 1824, 1889, "United Kingdom"), ("Robert Louis Stevenson", 1850, 1894, "United Kingdom"),
    ("Joseph Conrad", 1857, 1924, "United Kingdom"), ("Jack London", 1876, 1916, "United States"),
    ("Rudyard Kipling", 1865, 1936, "United Kingdom"), ("Lewis Carroll", 1832, 1898, "United Kingdom"),
    ("L. Frank Baum", 1856, 1919, "United States"), ("J. M. Barrie", 1860, 1937, "United Kingdom"),
    ("Frances Hodgson Burnett", 1849, 1924, "United States"), ("L. M. Montgomery", 1874, 1942, "Canada"),
    ("Edith Wharton", 1862, 1937, "United States"), ("Agatha Christie", 1890, 1976, "United Kingdom"),
    ("John Buchan", 1875, 1940, "United Kingdom"),
]

FORMATS = ["Paperback", "Hardcover", "Paperback", "Ebook", "Paperback", "Hardcover", "Audiobook"]
CONDITIONS = ["Like new", "Very good", "Good", "Fair"]


def rows() -> list[tuple]:
    out = []
    for i, (title, author, year, genre, pages) in enumerate(BOOKS, start=1):
        k = (i * 37 + year) % 97
        price = round(4.5 + (k % 23) * 0.75 + pages / 400, 2)
        rating = round(3.1 + ((i * 13 + pages) % 19) / 10, 1)  # 3.1 .. 4.9
        stock = (i * 7 + year) % 6
        fmt = FORMATS[(i * 5 + year) % len(FORMATS)]
        cond = CONDITIONS[(i + year) % len(CONDITIONS)]
        shelf = f"{genre[0]}{(i * 3) % 12 + 1:02d}"
        out.append((i, title, author, year, genre, pages, fmt, cond, price, rating, stock, shelf))
    return out


#: the page footer, without the query timings Datasette's own footer shows
FOOTER = 'Powered by <a href="https://datasette.io/">Datasette</a>\n'


def write_templates(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "_footer.html").write_text(FOOTER, encoding="utf-8")


def build(path: Path) -> None:
    if path.exists():
        path.unlink()
    con = sqlite3.connect(path)
    con.executescript(
        """
        CREATE TABLE authors (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, born INTEGER, died INTEGER, country TEXT
        );
        CREATE TABLE books (
            id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER REFERENCES authors(id),
            year INTEGER, genre TEXT, pages INTEGER, format TEXT, condition TEXT,
            price REAL, rating REAL, in_stock INTEGER, shelf TEXT
        );
        """
    )
    ids = {}
    for n, (name, born, died, country) in enumerate(AUTHORS, start=1):
        con.execute("INSERT INTO authors VALUES (?, ?, ?, ?, ?)", (n, name, born, died, country))
        ids[name] = n
    for r in rows():
        i, title, author, *rest = r
        con.execute("INSERT INTO books VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (i, title, ids[author], *rest))
    con.commit()
    con.execute("VACUUM")
    con.close()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    build(out / "bookshop.db")
    write_templates(out / "templates")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
