"""deckhand as a Ray Data datasource: a read task a file, its rows from
deckhand.read at the file's index.

Run by scripts/recipes.sh (local Ray, the bundled poker files); it checks
that Ray's rows equal the CLI's Parquet, keys included. Its output on
2026-11-28 (Ray 2.60.0):

    ray hands: 18 rows, same keys as the CLI: True
    ray actions: 228 rows, same keys as the CLI: True
"""

import sys

import pyarrow as pa
from ray.data.block import BlockMetadata
from ray.data.datasource import Datasource, ReadTask

import deckhand


class DeckhandDatasource(Datasource):
    def __init__(self, paths, table, game=None):
        self.files = deckhand.find_inputs(paths)
        self.table, self.game = table, game

    def estimate_inmemory_data_size(self):
        return None

    def get_read_tasks(self, parallelism, **kwargs):
        def task(i, f):
            return lambda: [
                pa.table(deckhand.read(f, table=self.table, game=self.game, file_index=i, threads=1))
            ]

        def meta(f):
            return BlockMetadata(num_rows=None, size_bytes=None, input_files=[f], exec_stats=None)

        return [ReadTask(task(i, f), meta(f)) for i, f in enumerate(self.files)]


def main(paths, dataset):
    import pyarrow.dataset as ds
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    for table in ["hands", "actions"]:
        got = ray.data.read_datasource(DeckhandDatasource(paths, table=table, game="poker"))
        rows = got.to_arrow_refs()
        t = pa.concat_tables([ray.get(r) for r in rows])
        want = ds.dataset(f"{dataset}/poker/{table}", format="parquet").to_table()
        key = "hand_id"
        same = t.num_rows == want.num_rows and sorted(t.column(key).to_pylist()) == sorted(
            want.column(key).to_pylist()
        )
        print(f"ray {table}: {t.num_rows} rows, same keys as the CLI: {same}")
        if not same:
            sys.exit(1)
    ray.shutdown()


if __name__ == "__main__":
    main(sys.argv[2:], sys.argv[1])
