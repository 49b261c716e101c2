"""deckhand as a PySpark 4 Python data source: one partition a file, its
rows from deckhand.read at the file's index, handed to Spark as Arrow
batches.

Run by scripts/recipes.sh (local Spark, the bundled bridge files); it
checks that Spark's rows equal the CLI's Parquet, keys included. Its output
on 2026-11-28 (PySpark 4.3.0, Java 17):

    spark boards: 83 rows, 43 columns, same keys as the CLI: True
    spark calls: 252 rows, 9 columns, same keys as the CLI: True
    spark errors: 141 rows, 12 columns, same keys as the CLI: True
"""

import sys

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

import deckhand

SPARK_TYPES = {
    pa.int8(): "TINYINT",
    pa.int16(): "SMALLINT",
    pa.int32(): "INT",
    pa.int64(): "BIGINT",
    pa.float64(): "DOUBLE",
    pa.bool_(): "BOOLEAN",
    pa.string(): "STRING",
    pa.date32(): "DATE",
}


def spark_type(t: pa.DataType) -> str:
    if t in SPARK_TYPES:
        return SPARK_TYPES[t]
    if pa.types.is_decimal(t):
        return f"DECIMAL({t.precision},{t.scale})"
    if pa.types.is_list(t):
        return f"ARRAY<{spark_type(t.value_type)}>"
    if pa.types.is_struct(t):
        return "STRUCT<" + ", ".join(f"`{f.name}`: {spark_type(f.type)}" for f in t) + ">"
    if pa.types.is_timestamp(t):
        return "TIMESTAMP"
    raise TypeError(f"no Spark type for {t}")


def nullable(t: pa.DataType) -> pa.DataType:
    """`t` with every nested field nullable, as a Spark DDL type is."""
    if pa.types.is_list(t):
        return pa.list_(pa.field(t.value_field.name, nullable(t.value_type)))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, nullable(f.type)) for f in t])
    return t


def spark_schema(schema: pa.Schema) -> pa.Schema:
    """The Arrow schema Spark expects of the DDL schema `ddl(schema)`."""
    return pa.schema([pa.field(f.name, nullable(f.type)) for f in schema])


def ddl(schema: pa.Schema) -> str:
    """A Spark DDL schema of an Arrow schema."""
    return ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in schema)


class DeckhandSource(DataSource):
    """`spark.read.format("deckhand").option("paths", "a,b").option("game", g).option("table", t)`."""

    @classmethod
    def name(cls):
        return "deckhand"

    def schema(self):
        return ddl(pa.schema(deckhand.schema(self.options["game"], self.options["table"])))

    def reader(self, schema):
        return DeckhandReader(self.options)


class DeckhandReader(DataSourceReader):
    def __init__(self, options):
        self.options = options
        self.files = deckhand.find_inputs(options["paths"].split(","))

    def partitions(self):
        return [InputPartition((i, f)) for i, f in enumerate(self.files)]

    def read(self, partition):
        i, f = partition.value
        r = deckhand.read(
            f,
            table=self.options["table"],
            game=self.options["game"],
            file_index=i,
            threads=1,
        )
        # Spark's columns are nullable: the same values, nullable fields.
        t = pa.table(r)
        yield from t.cast(spark_schema(t.schema)).to_batches()


def main(paths: list[str], dataset: str) -> None:
    import pyarrow.dataset as ds
    from pyspark.sql import SparkSession

    # Spark's Python workers: this interpreter (deckhand installed).
    import os

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").appName("deckhand").getOrCreate()
    spark.dataSource.register(DeckhandSource)
    for table in ["boards", "calls", "errors"]:
        df = (
            spark.read.format("deckhand")
            .option("paths", ",".join(paths))
            .option("game", "bridge")
            .option("table", table)
            .load()
        )
        key = df.columns[0] if table != "errors" else "record_id"
        got = df.toArrow()
        path = table if table == "errors" else f"bridge/{table}"
        want = ds.dataset(f"{dataset}/{path}", format="parquet").to_table()
        if table == "errors":
            want = want.filter(pa.compute.equal(want["game"], "bridge"))
        same = got.num_rows == want.num_rows and sorted(
            map(str, got.column(key).to_pylist())
        ) == sorted(map(str, want.column(key).to_pylist()))
        print(f"spark {table}: {got.num_rows} rows, {len(df.columns)} columns, same keys as the CLI: {same}")
        if not same:
            sys.exit(1)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv[2:], sys.argv[1])
