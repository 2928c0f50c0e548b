def test_healthz_answers(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json == {"status": "ok"}


def test_a_new_base_game_starts_in_setup(client):
    r = client.post("/v1/games", json={"scenario": "base", "players": 4, "seed": 3})
    assert r.status_code == 201
    st = r.json["state"]
    assert st["phase"] == "setup" and st["current_player"] == 0
    tiles = [h for h in st["board"]["hexes"] if h["terrain"] != "frame"]
    assert len(tiles) == 19 and len(st["board"]["harbors"]) == 9
